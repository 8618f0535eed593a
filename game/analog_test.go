package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/trace"
)

// levelClassifier reads a level above 600 as a man: the simplest analogue
// board, to test the door without a calibration. It records what it read.
type levelClassifier struct {
	frames int
	fail   string
}

func (c *levelClassifier) ClassifyAnalog(t time.Duration, bits int, levels *[trace.Channels]uint16) (board.Occupancy, error) {
	if c.fail != "" {
		return 0, errors.New(c.fail)
	}
	c.frames++
	var occ board.Occupancy
	for i, v := range levels {
		if v > 600 {
			occ = occ.With(board.Square(i))
		}
	}
	return occ, nil
}

// analogTrace writes frame lines whose levels show occupancies truth and
// whose recorded frame says recorded, one a line.
func analogTrace(first string, steps []struct {
	t               int
	truth, recorded board.Occupancy
}) string {
	var sb strings.Builder
	for i, s := range steps {
		l := trace.Line{T: time.Duration(s.t) * time.Millisecond, Kind: trace.Frame, Occupancy: s.recorded, Bits: 10}
		for sq := range l.Analog {
			l.Analog[sq] = 512
			if s.truth.Has(board.Square(sq)) {
				l.Analog[sq] = 900
			}
		}
		if i == 0 {
			l.Calibration = first
		}
		sb.Write(trace.Append(nil, l))
	}
	return sb.String()
}

func TestReplayReadsAnalogueFrames(t *testing.T) {
	startPos := board.Start()
	start := startPos.Occupancy()
	e2, e4 := board.Square(12), board.Square(28)
	played := start.Without(e2).With(e4)
	// The levels show e2-e4; the recorded frames show nothing happening.
	steps := []struct {
		t               int
		truth, recorded board.Occupancy
	}{{0, start, start}, {100, start.Without(e2), start}, {400, played, start}, {1000, played, start}}
	moves := func(out string) []string {
		var got []string
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, `"type":"move"`) {
				got = append(got, line[strings.Index(line, `"uci":"`)+7:][:4])
			}
		}
		return got
	}
	for _, tt := range []struct {
		name      string
		calName   string
		analog    bool // opts.Analog given
		open      bool // opts.OpenAnalog given
		wantMoves []string
		wantWarn  bool
	}{
		{"through the classifier", "", true, false, []string{"e2e4"}, false},
		{"through the calibration the trace names", "board.json", false, true, []string{"e2e4"}, false},
		{"the classifier given wins over the trace's", "board.json", true, true, []string{"e2e4"}, false},
		{"no classifier: the recorded frames", "", false, true, nil, true},
		{"a name and nobody to open it: the recorded frames", "board.json", false, false, nil, true},
	} {
		c := &levelClassifier{}
		var opened []string
		var logs bytes.Buffer
		opts := Options{Laws: "fide2023", Logger: slog.New(slog.NewTextHandler(&logs, nil))}
		if tt.analog {
			opts.Analog = c
		}
		if tt.open {
			opts.OpenAnalog = func(name string) (AnalogClassifier, error) {
				opened = append(opened, name)
				return c, nil
			}
		}
		var out bytes.Buffer
		if err := Replay(context.Background(), strings.NewReader(analogTrace(tt.calName, steps)), &out, opts); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := moves(out.String()); fmt.Sprint(got) != fmt.Sprint(tt.wantMoves) {
			t.Errorf("%s: moves %v, want %v\n%s", tt.name, got, tt.wantMoves, out.String())
		}
		if tt.wantMoves != nil && c.frames != len(steps) {
			t.Errorf("%s: %d frames classified, want each of the %d once", tt.name, c.frames, len(steps))
		}
		if tt.open && tt.calName != "" && !tt.analog && fmt.Sprint(opened) != "[board.json]" {
			t.Errorf("%s: opened %v", tt.name, opened)
		}
		if tt.analog && len(opened) > 0 {
			t.Errorf("%s: opened %v although a classifier was given", tt.name, opened)
		}
		if warned := strings.Contains(logs.String(), "replayed as the occupancy recorded"); warned != tt.wantWarn {
			t.Errorf("%s: warned %v, want %v: %s", tt.name, warned, tt.wantWarn, logs.String())
		}
	}
}

// TestReplayAnalogueFaultsNameTheLine: a classifier's refusal, or a
// calibration that cannot be opened, ends the replay with the line's number.
func TestReplayAnalogueFaultsNameTheLine(t *testing.T) {
	startPos := board.Start()
	start := startPos.Occupancy()
	steps := []struct {
		t               int
		truth, recorded board.Occupancy
	}{{0, start, start}, {100, start, start}}
	text := "# two analogue frames\n" + analogTrace("board.json", steps)
	var te *trace.Error
	err := Replay(context.Background(), strings.NewReader(text), &bytes.Buffer{}, Options{Laws: "fide2023",
		OpenAnalog: func(name string) (AnalogClassifier, error) { return nil, errors.New("no such file") }})
	if !errors.As(err, &te) || te.Line != 2 || !strings.Contains(te.Fault, `calibration "board.json": no such file`) {
		t.Errorf("unopenable calibration: %v", err)
	}
	err = Replay(context.Background(), strings.NewReader(text), &bytes.Buffer{}, Options{Laws: "fide2023", Analog: &levelClassifier{fail: "levels beyond the ADC"}})
	if !errors.As(err, &te) || te.Line != 2 || te.Fault != "levels beyond the ADC" {
		t.Errorf("classifier's refusal: %v", err)
	}
	// Through Input (hwtest, the runner), the same refusal comes back.
	g, err := New(Options{Laws: "fide2023", Analog: &levelClassifier{fail: "refused"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Input(trace.Line{Kind: trace.Frame, Bits: 10, Occupancy: start}); err == nil || err.Error() != "refused" {
		t.Errorf("Input: %v", err)
	}
}
