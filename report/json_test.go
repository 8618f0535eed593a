package report

import (
	"encoding/json"
	"testing"
	"time"
)

func TestParseReadsWhatAppendJSONWrites(t *testing.T) {
	for _, r := range []Report{
		{Type: Touch, T: 120 * time.Millisecond, Side: "white", Square: "e2", Piece: "pawn"},
		{Type: Touch, T: 130 * time.Millisecond, Side: "black", Square: "g8", Piece: "knight", Law: "fide2023:D.2.2"},
		{Type: Move, T: 700 * time.Millisecond, Side: "black", UCI: "g8f6", SAN: "Nf6", FEN: "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1 1", Law: "fide2023:D.2.3"},
		{Type: Adjust, T: 1500 * time.Microsecond, Side: "black", Square: "g8", Announced: true},
		{Type: Move, T: 650 * time.Millisecond, Side: "white", UCI: "e7e8n", SAN: "e8=N+", FEN: "4N3/8/8/8/8/8/8/4K2k b - - 0 1", WhiteClock: "0:04:57", BlackClock: "0:05:00"},
		{Type: Irregularity, T: time.Second, Kind: KindTouchMove, Law: "nycc:X", Offender: "white", Chooser: Black, Options: []Option{{ID: OptStand, Squares: []string{"e4"}}, {ID: OptMoveTouched, Squares: []string{"g1", "f3", "h3"}}}},
		{Type: Ruling, T: 2 * time.Second, Option: OptStand, By: Lapse, Law: "nycc:XI"},
		{Type: Mismatch, T: 3 * time.Second, Missing: []string{"a2"}, Extra: []string{"a3"}},
		{Type: Result, T: 4 * time.Second, Result: Draw, Reason: "stalemate", Law: "fide2023:5.2.1"},
		{Type: Clock, T: 5 * time.Second, Side: "black", WhiteClock: "0:01:00", BlackClock: "0:00:00", Reason: "flag"},
		{Type: End, T: 6 * time.Second, FEN: "8/8/8/8/8/8/8/4K2k w - - 0 1", PGN: "[Event \"?\"]\n\n*\n"},
		// A tag typed by a person may hold any character: the JSON stays
		// JSON (strconv.Quote's \x01 and \a are not).
		{Type: End, T: 7 * time.Second, FEN: "8/8/8/8/8/8/8/4K2k w - - 0 1", PGN: "[Event \"Caf\u00e9 \x01\a\x7f\"]\n\n*\n"},
	} {
		if !json.Valid(r.AppendJSON(nil)) {
			t.Errorf("%s: not JSON: %s", r.Type, r.AppendJSON(nil))
		}
		got, err := Parse(r.AppendJSON(nil))
		if err != nil {
			t.Fatalf("%s: %v", r.Type, err)
		}
		if string(got.AppendJSON(nil)) != string(r.AppendJSON(nil)) {
			t.Errorf("round trip changed %s:\n %s\n %s", r.Type, r.AppendJSON(nil), got.AppendJSON(nil))
		}
	}
	for _, bad := range []string{`{}`, `{"type":"move"}`, `{"t":5}`, `{"type":"move","t":-1}`, `nonsense`, `{"type":"","t":1}`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) accepted it", bad)
		}
	}
}

func TestOptionTouchedSquare(t *testing.T) {
	for _, tc := range []struct {
		id     OptionID
		square string
		ok     bool
	}{
		{MoveTouchedOn("b1"), "b1", true},
		{OptMoveTouched, "", false},
		{OptKing, "", false},
	} {
		sq, ok := tc.id.TouchedSquare()
		if sq != tc.square || ok != tc.ok {
			t.Errorf("%s.TouchedSquare() = %q, %v; want %q, %v", tc.id, sq, ok, tc.square, tc.ok)
		}
	}
}

func TestLawParts(t *testing.T) {
	l := Law("fide2023:7.5.1")
	if l.Set() != "fide2023" || l.Number() != "7.5.1" {
		t.Errorf("%s: set %q number %q", l, l.Set(), l.Number())
	}
}
