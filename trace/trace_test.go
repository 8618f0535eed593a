package trace

import (
	"encoding/json"
	"errors"
	"fmt"
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
		{`[1,2]`, "not a JSON object: the line is a JSON array"},
		{`{"t":"x","lift":"e2"}`, `"t" is a JSON string, want a number`},
		{`{"t":1,"lift":5}`, `"lift" is a JSON number, want a string`},
		{`{"t":1,"takeback":"2","side":"white"}`, `"takeback" is a JSON string, want a whole number`},
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
		if err != nil && (strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "wire")) {
			t.Errorf("Parse(%s) error %q speaks of the decoder's Go types", tt.in, err)
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
	for _, s := range []string{`{"t":120,"lift":"e2"}`, `{"t":0,"frame":"ffff00000000ffbf"}`, `{"t":9,"choose":"king","side":"black"}`, `{"t":1,"setup":"8/8/8/8/8/8/8/K6k w - - 0 1"}`, `{`, ``,
		analogLine(3, "ffff00000000ffbf", 12, 2000), analogLine(4, "0000000000000000", 10, 960), `{"t":0,"calibration":"b.json","frame":"0000000000000000","bits":3,"analog":[7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7,0,1,2,3,4,5,6]}`} {
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

// analogLine builds an analogue frame line's JSON: occupancy, resolution and
// 64 levels (level i = base + i).
func analogLine(t int, frame string, bits, base int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, `{"t":%d,"frame":%q,"bits":%d,"analog":[`, t, frame, bits)
	for i := 0; i < 64; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "%d", base+i)
	}
	sb.WriteString("]}")
	return sb.String()
}

func TestParseAnalog(t *testing.T) {
	in := analogLine(40, "ffff00000000ffff", 12, 2000)
	l, err := Parse([]byte(in))
	if err != nil {
		t.Fatalf("Parse(%s): %v", in, err)
	}
	want := Line{T: 40 * time.Millisecond, Kind: Frame, Occupancy: 0xffff00000000ffff, Bits: 12}
	for i := range want.Analog {
		want.Analog[i] = uint16(2000 + i)
	}
	if l != want {
		t.Fatalf("Parse = %+v, want %+v", l, want)
	}
	// Append writes the line back as it came (keys in the same order).
	if got := strings.TrimSpace(string(Append(nil, l))); got != in {
		t.Errorf("Append = %s, want %s", got, in)
	}
	// Spaces inside the array, and the calibration named on the line.
	spaced := strings.ReplaceAll(strings.Replace(in, `{"t":40,`, `{"t":40,"calibration":"board.json",`, 1), ",", " , ")
	l, err = Parse([]byte(spaced))
	if err != nil || l.Analog != want.Analog || l.Calibration != "board.json" {
		t.Fatalf("Parse(%s) = %+v, %v", spaced, l, err)
	}
	back, err := Parse(Append(nil, l))
	if err != nil || back != l {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	// The top of a 10-bit ADC's range, of the 16 bits a level can hold, and
	// a 1-bit ADC.
	for _, tt := range []struct{ bits, base int }{{10, 1023 - 63}, {16, 65535 - 63}} {
		if _, err := Parse([]byte(analogLine(0, "0000000000000000", tt.bits, tt.base))); err != nil {
			t.Errorf("%d bits: %v", tt.bits, err)
		}
	}
	ones := `{"t":0,"frame":"0000000000000000","bits":1,"analog":[` + strings.TrimSuffix(strings.Repeat("1,", 64), ",") + "]}"
	if l, err := Parse([]byte(ones)); err != nil || l.Analog[63] != 1 {
		t.Errorf("1 bit: %+v, %v", l, err)
	}
}

func TestParseAnalogFaults(t *testing.T) {
	good := analogLine(1, "0000000000000000", 10, 500)
	levels := good[strings.Index(good, `"analog":`):]
	levels = strings.TrimSuffix(levels, "}")
	tests := []struct{ in, fault string }{
		{`{"t":1,"frame":"0000000000000000","analog":[1,2]}`, `analog: missing "bits"`},
		{`{"t":1,"frame":"0000000000000000","bits":10}`, `bits without "analog"`},
		{`{"t":1,"lift":"e2","bits":10,` + levels + `}`, `lift line with analogue levels`},
		{`{"t":1,"frame":"0000000000000000","bits":0,` + levels + `}`, `bits 0: want the ADC's resolution`},
		{`{"t":1,"frame":"0000000000000000","bits":17,` + levels + `}`, `bits 17`},
		{`{"t":1,"frame":"0000000000000000","bits":"12",` + levels + `}`, `bits "12"`},
		{`{"t":1,"frame":"0000000000000000","bits":10.5,` + levels + `}`, `bits 10.5`},
		{`{"t":1,"frame":"0000000000000000","bits":10,"analog":{"a":1}}`, `analog: want an array of 64 levels`},
		{`{"t":1,"frame":"0000000000000000","bits":10,"analog":[]}`, `analog: 0 levels, want 64`},
		{`{"t":1,"frame":"0000000000000000","bits":10,"analog":[1,2,3]}`, `analog: 3 levels, want 64`},
		{strings.Replace(good, "[500,", "[500,500,", 1), `analog: 65 levels, want 64`},
		{strings.Replace(good, ",563]", ",1024]", 1), `analog level 63: 1024 is more than a 10-bit ADC reads (0 to 1023)`},
		{strings.Replace(good, ",563]", ",99999999999999999999999]", 1), `analog level 63: 99999999999999999999999 is more than a 10-bit ADC reads`},
		{strings.Replace(good, "[500,", "[-1,", 1), `analog level 0: -1 is negative`},
		{strings.Replace(good, ",501,", `,"x",`, 1), `analog level 1: want a whole number of ADC counts, not a string`},
		{strings.Replace(good, ",501,", `,[1],`, 1), `analog level 1: want a whole number of ADC counts, not an array`},
		{strings.Replace(good, ",501,", `,null,`, 1), `analog level 1: want a whole number of ADC counts, not null`},
		{strings.Replace(good, ",502,", `,502.5,`, 1), `analog level 2: 502.5 is not a whole number`},
		{strings.Replace(good, ",502,", `,5e2,`, 1), `analog level 2: 5e2 is not a whole number`},
		{strings.Replace(good, `"t":1,`, `"t":1,"calibration":"",`, 1), `calibration: empty file name`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.fault) {
			t.Errorf("Parse(%s)\n error %v, want one containing %q", tt.in, err, tt.fault)
		}
	}
}

// TestOldReadersReadAnalogFrames: a reader that knows nothing of analogue
// levels (any JSON reader of the v1 keys, as boardd read traces before them)
// takes an analogue frame line for the frame it carries: the new keys are
// unknown fields, which v1 ignores.
func TestOldReadersReadAnalogFrames(t *testing.T) {
	in := analogLine(40, "ffff00000000ffbf", 12, 2000)
	in = strings.Replace(in, `{"t":40,`, `{"t":40,"calibration":"board.json",`, 1)
	var old struct {
		T     *float64 `json:"t"`
		Frame *string  `json:"frame"`
	}
	dec := json.NewDecoder(strings.NewReader(in))
	if err := dec.Decode(&old); err != nil || old.T == nil || *old.T != 40 || old.Frame == nil || *old.Frame != "ffff00000000ffbf" {
		t.Fatalf("a v1 reader reads %+v, %v", old, err)
	}
	// And a null is as good as an absent key, as for every key of v1.
	l, err := Parse([]byte(`{"t":1,"frame":"0000000000000000","bits":null,"analog":null}`))
	if err != nil || l.Bits != 0 {
		t.Fatalf("nulls: %+v, %v", l, err)
	}
}

func TestReaderAnalogRules(t *testing.T) {
	first := strings.Replace(analogLine(0, "ffff00000000ffff", 12, 2000), `{"t":0,`, `{"t":0,"calibration":"board.json",`, 1)
	tests := []struct {
		name  string
		lines []string
		fault string // empty: the trace reads to its end
	}{
		{"calibration on the first line", []string{first, analogLine(10, "ffff00000000ffff", 12, 2000)}, ""},
		{"calibration later", []string{analogLine(0, "ffff00000000ffff", 12, 2000), first}, "trace line 2: calibration must be named on the first line"},
		{"calibration with a setup", []string{`{"t":0,"calibration":"c.json","setup":"` + board.StartFEN + `"}`, analogLine(10, "ffff00000000ffff", 12, 2000)}, ""},
		{"resolution changes", []string{"# a comment", first, `{"t":5,"lift":"e2"}`, analogLine(10, "ffff00000000ffff", 10, 500)}, "trace line 4: bits 10, where line 2 said 12"},
		{"digital frames between", []string{first, `{"t":5,"frame":"ffff00000000efff"}`, analogLine(10, "ffff00000000ffff", 12, 2000)}, ""},
	}
	for _, tt := range tests {
		_, err := ReadAll(strings.NewReader(strings.Join(tt.lines, "\n") + "\n"))
		switch {
		case tt.fault == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.fault != "" && (err == nil || !strings.Contains(err.Error(), tt.fault)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.fault)
		}
	}
}
