package trace

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

func TestParseKinds(t *testing.T) {
	tests := []struct {
		in   string
		want Line
	}{
		{`{"t":120,"lift":"e2"}`, Line{T: 120 * time.Millisecond, Kind: Lift, Square: 12}},
		{`{"t":480,"place":"E4"}`, Line{T: 480 * time.Millisecond, Kind: Place, Square: 28}},
		{`{"t":0,"frame":"ffff00000000ffbf"}`, Line{Kind: Frame, Occupancy: 0xffff00000000ffbf}},
		{`{"t":900,"press":"jadoube","side":"white"}`, Line{T: 900 * time.Millisecond, Kind: Press, Button: "jadoube", Side: "white"}},
		{`{"t":950,"choose":"king","side":"black"}`, Line{T: 950 * time.Millisecond, Kind: Choose, Option: "king", Side: "black"}},
		{`{"t":950,"choose":"restore","side":"arbiter"}`, Line{T: 950 * time.Millisecond, Kind: Choose, Option: "restore", Side: "arbiter"}},
		{`{"t":990,"promote":"n","side":"white"}`, Line{T: 990 * time.Millisecond, Kind: Promote, Piece: board.Knight, Side: "white"}},
		{`{"t":1.5,"seq":7,"lift":"a1","extra":{"x":1}}`, Line{T: 1500 * time.Microsecond, Kind: Lift, Square: 0, Seq: 7}},
		{`{"t":3,"arbiter":"annul"}`, Line{T: 3 * time.Millisecond, Kind: Arbiter, Action: "annul", Side: "arbiter"}},
		{`{"t":4,"remote":"black"}`, Line{T: 4 * time.Millisecond, Kind: Remote, Side: "black"}},
		{`{"t":5,"opponent":"e7e8n"}`, Line{T: 5 * time.Millisecond, Kind: Opponent, Move: board.Move{From: 52, To: 60, Promo: board.Knight}}},
		{`{"t":6,"takeback":2,"side":"white"}`, Line{T: 6 * time.Millisecond, Kind: TakeBack, Plies: 2, Side: "white"}},
	}
	for _, tt := range tests {
		got, err := Parse([]byte(tt.in))
		if err != nil {
			t.Errorf("Parse(%s): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%s) = %+v, want %+v", tt.in, got, tt.want)
		}
		// What Append writes, Parse reads back the same.
		back, err := Parse(Append(nil, got))
		if err != nil || back != got {
			t.Errorf("round trip of %s: %+v, %v", tt.in, back, err)
		}
	}
}

func TestParseFaults(t *testing.T) {
	tests := []struct{ in, fault string }{
		{`garbage`, "not a JSON object"},
		{`{"lift":"e2"}`, `missing "t"`},
		{`{"t":-1,"lift":"e2"}`, "is not a time"},
		{`{"t":1}`, "no input on the line"},
		{`{"t":1,"lift":"e2","place":"e4"}`, "more than one input"},
		{`{"t":1,"lift":"e9"}`, `square "e9"`},
		{`{"t":1,"frame":"ffff"}`, "want 16 hex digits"},
		{`{"t":1,"frame":"gfff00000000ffbf"}`, "want 16 hex digits"},
		{`{"t":1,"press":"reset","side":"white"}`, `press "reset"`},
		{`{"t":1,"press":"clock"}`, "side"},
		{`{"t":1,"choose":"king","side":"green"}`, `side "green"`},
		{`{"t":1,"promote":"k","side":"white"}`, `promote "k"`},
		{`{"t":1,"setup":"nonsense"}`, "setup"},
		{`{"t":1,"setup":"8/8/8/8/8/8/8/Kk6 w - - 0 1"}`, "setup: FEN \"8/8/8/8/8/8/8/Kk6 w - - 0 1\": illegal position: the kings touch"},
		{`{"t":1,"setup":"4k3/8/8/8/8/8/8/3PK3 w - - 0 1"}`, "a white pawn on d1"},
		{`{"t":9223372036854,"lift":"e2"}`, `"t" 9.223372036854e+12 is not a time`},
		{`{"t":1e300,"lift":"e2"}`, "is not a time"},
		{`{"t":1,"lift":"e2"} {"t":2}`, "more than one JSON value"},
		{`{"t":1,"remote":"green"}`, `remote "green"`},
		{`{"t":1,"opponent":"e9e8"}`, `opponent "e9e8"`},
		{`{"t":1,"takeback":0,"side":"white"}`, "takeback 0"},
		{`{"t":1,"takeback":1}`, "takeback: side"},
		{`{"t":1,"remote":"black","lift":"e2"}`, "more than one input"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.fault) {
			t.Errorf("Parse(%s) error %v, want one containing %q", tt.in, err, tt.fault)
		}
	}
}

func TestReaderSkipsAndNumbers(t *testing.T) {
	in := "# a comment\n\n{\"t\":0,\"lift\":\"e2\"}\n   \n{\"t\":400,\"place\":\"e4\"}\n{\"t\":300,\"lift\":\"e7\"}\n"
	r := NewReader(strings.NewReader(in))
	for i := 0; i < 2; i++ {
		if _, err := r.Next(); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
	}
	_, err := r.Next()
	var te *Error
	if !errors.As(err, &te) || te.Line != 6 || !strings.Contains(te.Fault, "back in time") {
		t.Fatalf("want a back-in-time fault on line 6, got %v", err)
	}
}

func TestSetupOnlyFirst(t *testing.T) {
	in := "{\"t\":0,\"lift\":\"e2\"}\n{\"t\":1,\"setup\":\"" + board.StartFEN + "\"}\n"
	_, err := ReadAll(strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "trace line 2: setup must be the first line") {
		t.Fatalf("got %v", err)
	}
	r := NewReader(strings.NewReader("{\"t\":0,\"setup\":\"" + board.StartFEN + "\"}\n"))
	if l, err := r.Next(); err != nil || l.Kind != Setup {
		t.Fatalf("setup first: %+v %v", l, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"t":120,"lift":"e2"}`, `{"t":0,"frame":"ffff00000000ffbf"}`, `{"t":9,"choose":"king","side":"black"}`, `{"t":1,"setup":"8/8/8/8/8/8/8/K6k w - - 0 1"}`, `{`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			return
		}
		back, err := Parse(Append(nil, l))
		if err != nil {
			t.Fatalf("Append of a parsed line does not parse: %v", err)
		}
		if back != l {
			t.Fatalf("round trip changed the line: %+v -> %+v", l, back)
		}
	})
}

// TestLatestTimeCannotOverflow: the latest time a line may carry leaves room
// for every timer the game adds to it.
func TestLatestTimeCannotOverflow(t *testing.T) {
	l, err := Parse([]byte(`{"t":1000000000000,"lift":"e2"}`))
	if err != nil || l.T != MaxT {
		t.Fatalf("the latest time: %+v, %v", l, err)
	}
	if sum := l.T + 100*365*24*time.Hour; sum < l.T {
		t.Errorf("a century after MaxT overflows: %v", sum)
	}
}
