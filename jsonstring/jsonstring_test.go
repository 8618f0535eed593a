package jsonstring

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every string comes back from a JSON reader as it went in (a byte that is
// not UTF-8 as U+FFFD), and no raw control character is written.
func TestAppendWritesJSON(t *testing.T) {
	for _, s := range []string{"", "king", "x\x01\x7f", "quote\"back\\slash", "tab\tnew\nline\r", "é♞", "bad \xff utf-8", "\u2028", string([]byte{0xe2, 0x82})} {
		out := Append(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Errorf("Append(%q) = %s: not JSON: %v", s, out, err)
			continue
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want && !(strings.Contains(s, "\xe2\x82") && back == "\ufffd\ufffd") {
			t.Errorf("Append(%q) = %s, read back as %q", s, out, back)
		}
		for _, b := range out {
			if b < 0x20 || b == 0x7f {
				t.Errorf("Append(%q) = %q: a raw control character", s, out)
			}
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	buf := make([]byte, 0, 64)
	for b.Loop() {
		buf = Append(buf[:0], "Morphy, \"Paul\" \u00e9")
	}
}
