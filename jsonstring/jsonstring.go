// Package jsonstring writes Go strings as JSON strings, byte for byte what
// every JSON reader takes back, without the reflection and allocations of
// encoding/json: the trace, journal and report writers put one on every line
// they write.
package jsonstring

import "unicode/utf8"

// Append writes s onto dst as a JSON string: quoted, with the quote,
// the backslash, the control characters and DEL escaped (\uXXXX), and any
// byte that is not UTF-8 written as U+FFFD, so that every JSON reader takes
// it back. (strconv.Quote writes Go escapes such as \x01, which JSON does
// not have.)
func Append(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		dst = append(dst, s[start:i]...)
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c < utf8.RuneSelf: // the other control characters and DEL
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default: // a byte that is not UTF-8
			dst = append(dst, `\ufffd`...)
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"
