package hall

import (
	"strings"
	"testing"
)

// A state message is read in part at once; a bad one is refused with the
// protocol's own words.
func TestDecodeState(t *testing.T) {
	for _, c := range []struct{ payload, err string }{
		{`{"v":2,"board":"b1","state":{"fen":1}}`, "protocol version 2"},
		{`{"board":"b1"}`, `no "v"`},
		{`{"v":1,"board":"b1","state":{"fen":7}}`, "fen"},
		{`[1,2]`, "wire: test"},
	} {
		if _, err := decodeState([]byte(c.payload), "test"); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.payload, err, c.err)
		}
	}
	m, err := decodeState([]byte(`{"v":1,"board":"b1","seq":9,"game":2,"state":{"fen":"8/8/8/8/8/8/8/K6k w - - 0 1","laws":{"id":"nycc"},"syncing":true,"moves":[{"ply":1,"san":"e4"}],"pending":{"kind":"touch-move","chooser":"black"}},"pgn":"*"}`), "test")
	if err != nil {
		t.Fatal(err)
	}
	if m.Seq != 9 || m.Game != 2 || m.head.Laws.ID != "nycc" || !m.head.Syncing || m.head.Pending == nil || m.head.Pending.Chooser != "black" || m.PGN != "*" {
		t.Errorf("read %+v %+v", m, m.head)
	}
	st, err := m.console()
	if err != nil || len(st.Moves) != 1 || st.Moves[0].SAN != "e4" {
		t.Errorf("the whole state: %+v, %v", st, err)
	}
}
