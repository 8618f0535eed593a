package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
)

// Every line boardd writes ends in its checksum: the record's JSON object is
// closed by `,"crc":"xxxxxxxx"}`, eight hex digits of the CRC-32C
// (Castagnoli) of the line's bytes before the comma. A reader that knows
// nothing of checksums (an older boardd, jq) reads "crc" as one more key.
//
// A CRC-32 catches every burst of damage up to 32 bits long, so any one
// damaged byte is caught; and because the CRC is linear, the difference
// between the checksum stored and the checksum of the line as read (the
// syndrome) says which byte was damaged and how: one damaged byte anywhere
// in a line, its newline included, is repaired, not merely detected.
const (
	sumKey = `,"crc":"`
	sumEnd = `"}`
	// sumLen is the length of the checksum's part of a line.
	sumLen = len(sumKey) + 8 + len(sumEnd)
	// minSealed is the shortest sealed line: `{"t":0,"seq":1` and the sum.
	minSealed = len(`{"t":0,"seq":1`) + sumLen
)

// castagnoli is the CRC-32C table (read only: crc32 builds it once, and uses
// the processor's CRC instruction where it has one).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(body []byte) uint32 { return crc32.Checksum(body, castagnoli) }

const hexDigits = "0123456789abcdef"

// seal turns the record at dst[start:], a JSON object and its newline, into
// a sealed line: the closing brace makes way for the checksum.
func seal(dst []byte, start int) []byte {
	dst = dst[:len(dst)-2] // "}\n"
	sum := checksum(dst[start:])
	dst = append(dst, sumKey...)
	for shift := 28; shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[sum>>uint(shift)&0xf])
	}
	dst = append(dst, sumEnd...)
	return append(dst, '\n')
}

// unseal splits a line (without its newline) into the checksummed part and
// the stored checksum; ok is false when the line has no well-formed checksum.
func unseal(line []byte) (body []byte, sum uint32, ok bool) {
	n := len(line)
	if n < minSealed || string(line[n-sumLen:n-sumLen+len(sumKey)]) != sumKey || string(line[n-len(sumEnd):]) != sumEnd {
		return nil, 0, false
	}
	sum, ok = parseHex(line[n-len(sumEnd)-8 : n-len(sumEnd)])
	return line[:n-sumLen], sum, ok
}

func parseHex(h []byte) (uint32, bool) {
	var v uint32
	for _, c := range h {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		default:
			return 0, false
		}
		v = v<<4 | uint32(d)
	}
	return v, true
}

// verify reports whether line (without its newline) is a sealed line whose
// checksum holds, and returns its record: the JSON object without the
// checksum.
func verify(line []byte) ([]byte, bool) {
	body, ok := checked(line)
	if !ok {
		return nil, false
	}
	return record(body), true
}

// checked is verify without the copy: it returns the checksummed part of
// the line, the record but for its closing brace.
func checked(line []byte) ([]byte, bool) {
	body, sum, ok := unseal(line)
	if !ok || checksum(body) != sum {
		return nil, false
	}
	return body, true
}

// record closes a checksummed body into its JSON object (a copy).
func record(body []byte) []byte {
	out := make([]byte, len(body)+1)
	copy(out, body)
	out[len(body)] = '}'
	return out
}

// repair tries to explain a line that fails its checksum by one damaged
// byte. It returns the line as it was written and what was wrong, or ok
// false. A repair is taken only when exactly one byte explains the damage
// and the line it gives is JSON.
func repair(line []byte) (fixed []byte, what string, ok bool) {
	n := len(line)
	if n < minSealed {
		return nil, "", false
	}
	hexAt, keyAt, endAt := n-len(sumEnd)-8, n-sumLen, n-len(sumEnd)
	// The checksum's frame: `,"crc":"` and `"}`.
	frameBad := -1
	for i := range len(sumKey) {
		if line[keyAt+i] != sumKey[i] {
			if frameBad >= 0 {
				return nil, "", false // two bytes: not one byte's damage
			}
			frameBad = keyAt + i
		}
	}
	for i := range len(sumEnd) {
		if line[endAt+i] != sumEnd[i] {
			if frameBad >= 0 {
				return nil, "", false
			}
			frameBad = endAt + i
		}
	}
	body := line[:keyAt]
	sum := checksum(body)
	if frameBad >= 0 {
		fixed = bytes.Clone(line)
		if frameBad < endAt {
			fixed[frameBad] = sumKey[frameBad-keyAt]
		} else {
			fixed[frameBad] = sumEnd[frameBad-endAt]
		}
		if stored, ok := parseHex(fixed[hexAt:endAt]); !ok || stored != sum {
			return nil, "", false
		}
		return fixed, describe(frameBad, line[frameBad], fixed[frameBad]), true
	}
	// The checksum's digits: the body is whole if the digits it gives
	// differ from those stored in one place.
	want := make([]byte, 8)
	for i := range 8 {
		want[i] = hexDigits[sum>>uint(28-4*i)&0xf]
	}
	diff := -1
	for i := range 8 {
		if line[hexAt+i] != want[i] {
			if diff >= 0 {
				diff = -2
				break
			}
			diff = i
		}
	}
	if diff >= 0 {
		fixed = bytes.Clone(line)
		fixed[hexAt+diff] = want[diff]
		return fixed, describe(hexAt+diff, line[hexAt+diff], want[diff]), true
	}
	// The body: the syndrome locates the byte.
	stored, ok := parseHex(line[hexAt:endAt])
	if !ok {
		return nil, "", false
	}
	var found []byte
	var foundAt int
	for _, c := range locate(sum^stored, len(body)) {
		cand := bytes.Clone(line)
		cand[c.at] ^= c.flip
		if cand[c.at] == '\n' || !json.Valid(record(cand[:keyAt])) {
			continue
		}
		if found != nil {
			return nil, "", false // two explanations: take neither
		}
		found, foundAt = cand, c.at
	}
	if found == nil {
		return nil, "", false
	}
	return found, describe(foundAt, line[foundAt], found[foundAt]), true
}

func describe(at int, was, is byte) string {
	return fmt.Sprintf("byte %d of the line read %s, written %s", at+1, byteName(was), byteName(is))
}

func byteName(b byte) string {
	if b >= 0x20 && b < 0x7f {
		return fmt.Sprintf("%q", rune(b))
	}
	return fmt.Sprintf("0x%02x", b)
}

// damage is one byte's damage: the byte at offset at was changed by xor
// flip.
type damage struct {
	at   int
	flip byte
}

// locate finds every single byte whose damage gives syndrome s (the CRC of
// the line as read xor the CRC stored) in a body of n bytes. A CRC is
// linear: damage e at offset at changes the CRC by the CRC register that e
// followed by n-1-at zero bytes leaves, from a zero register. Walking back
// from s one zero byte at a time, the register is a single byte's e exactly
// where the damage is. O(n).
func locate(s uint32, n int) []damage {
	tab := castagnoli
	// In a reflected CRC table, each entry's top byte is different: it
	// names the byte that was shifted out.
	var byTop [256]byte
	var seen [256]bool
	for x := range 256 {
		top := tab[x] >> 24
		if seen[top] {
			return nil // not a table this walk works on
		}
		seen[top], byTop[top] = true, byte(x)
	}
	var out []damage
	for k := 0; k < n && s != 0; k++ {
		// Is s the register after one byte e from zero?
		if e := byTop[s>>24]; tab[e] == s && e != 0 {
			out = append(out, damage{at: n - 1 - k, flip: e})
		}
		// Undo one zero byte: s = tab[x] ^ (prev >> 8), x = byte(prev).
		x := byTop[s>>24]
		s = (s^tab[x])<<8 | uint32(x)
	}
	return out
}
