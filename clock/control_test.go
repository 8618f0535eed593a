package clock

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	sec  = time.Second
	mins = time.Minute
)

func TestParseValid(t *testing.T) {
	cases := []struct {
		in     string
		stages []Stage
		name   string
		tag    string // String(); "" means the input itself
	}{
		{in: "300", stages: []Stage{{Time: 300 * sec}}},
		{in: "5400", stages: []Stage{{Time: 90 * mins}}},
		{in: "300+2", stages: []Stage{{Time: 5 * mins, Mode: Increment, Bonus: 2 * sec}}},
		{in: "0+1", stages: []Stage{{Mode: Increment, Bonus: sec}}},
		{in: "0d5", stages: []Stage{{Mode: Delay, Bonus: 5 * sec}}},
		{in: "300d5", stages: []Stage{{Time: 5 * mins, Mode: Delay, Bonus: 5 * sec}}},
		{in: "300b5", stages: []Stage{{Time: 5 * mins, Mode: Bronstein, Bonus: 5 * sec}}},
		{in: "40/5400+30:1800+30", stages: []Stage{
			{Moves: 40, Time: 90 * mins, Mode: Increment, Bonus: 30 * sec},
			{Time: 30 * mins, Mode: Increment, Bonus: 30 * sec}}},
		{in: "40/7200:20/3600:900+30", stages: []Stage{
			{Moves: 40, Time: 2 * time.Hour}, {Moves: 20, Time: time.Hour},
			{Time: 15 * mins, Mode: Increment, Bonus: 30 * sec}}},
		{in: "30/7200:15/3600", stages: []Stage{{Moves: 30, Time: 2 * time.Hour}, {Moves: 15, Time: time.Hour}}},
		{in: "40/7200d30:3600d30", stages: []Stage{
			{Moves: 40, Time: 2 * time.Hour, Mode: Delay, Bonus: 30 * sec},
			{Time: time.Hour, Mode: Delay, Bonus: 30 * sec}}},
		{in: "300+0", stages: []Stage{{Time: 5 * mins}}, tag: "300"},
		{in: "  300+2 ", stages: []Stage{{Time: 5 * mins, Mode: Increment, Bonus: 2 * sec}}, tag: "300+2"},
		{in: "0300+02", stages: []Stage{{Time: 5 * mins, Mode: Increment, Bonus: 2 * sec}}, tag: "300+2"},
		{in: "hastings1895", name: "hastings1895", tag: "30/7200:15/3600",
			stages: []Stage{{Moves: 30, Time: 2 * time.Hour}, {Moves: 15, Time: time.Hour}}},
		{in: "fide-classical", name: "fide-classical", tag: "40/5400+30:1800+30", stages: []Stage{
			{Moves: 40, Time: 90 * mins, Mode: Increment, Bonus: 30 * sec},
			{Time: 30 * mins, Mode: Increment, Bonus: 30 * sec}}},
		{in: "fide-rapid", name: "fide-rapid", tag: "900+10", stages: []Stage{{Time: 15 * mins, Mode: Increment, Bonus: 10 * sec}}},
		{in: "fide-blitz", name: "fide-blitz", tag: "180+2", stages: []Stage{{Time: 3 * mins, Mode: Increment, Bonus: 2 * sec}}},
	}
	for _, c := range cases {
		got, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got.Stages, c.stages) || got.Name != c.name {
			t.Errorf("Parse(%q) = %+v (name %q), want %+v (name %q)", c.in, got.Stages, got.Name, c.stages, c.name)
		}
		want := c.tag
		if want == "" {
			want = c.in
		}
		if s := got.String(); s != want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, s, want)
		}
		if Tag(got) != got.String() {
			t.Errorf("Tag(%q) differs from String", c.in)
		}
		again, err := Parse(got.String())
		if err != nil || !reflect.DeepEqual(again.Stages, got.Stages) {
			t.Errorf("Parse(String()) of %q = %+v, %v: does not round-trip", c.in, again.Stages, err)
		}
	}
}

func TestParseInvalid(t *testing.T) {
	cases := []struct {
		in    string
		stage int
		fault string // a substring of the fault that names it
	}{
		{"", 0, "empty: want a preset"},
		{"   ", 0, "empty"},
		{"-", 0, "untimed"},
		{"?", 0, "unknown time control"},
		{"*180", 0, "sandclock"},
		{"blitz", 0, `unknown preset "blitz": want one of hastings1895, fide-classical, fide-rapid, fide-blitz`},
		{"FIDE-rapid", 0, "unknown preset"},
		{"d5", 1, "a delay needs the stage's seconds before it"},
		{"b5", 1, "300b5"},
		{"40/", 1, "want seconds after '/'"},
		{"/5400", 1, "want a move count before '/'"},
		{"x/5400", 1, `"x": want a move count before '/'`},
		{"0/5400", 1, "the move count must be at least 1"},
		{"501/5400:60", 1, "move count 501: at most 500"},
		{"40/5400:", 2, "empty: want [moves/]seconds"},
		{":300", 1, "empty"},
		{"5400:1800", 1, "no move count, so it lasts the rest of the game and stage 2 can never begin"},
		{"40/5400:1800:600", 2, "stage 3 can never begin"},
		{"0", 1, "no time: the flag would fall at once"},
		{"0b5", 1, "no time"},
		{"40/0:300", 1, "no time"},
		{"40/5400/30", 1, "a second '/'"},
		{"300+", 1, "want increment seconds after '+'"},
		{"300d", 1, "want delay seconds after 'd'"},
		{"300b", 1, "want delay seconds after 'b'"},
		{"+2", 1, `"+2": want seconds`},
		{"300+2d5", 1, "more than one increment or delay"},
		{"300++2", 1, "more than one increment or delay"},
		{"300x5", 1, `unexpected 'x' after 300`},
		{"300 +2", 1, `unexpected ' ' after 300`},
		{"1.5", 1, "fractions of a second are not supported"},
		{"300+1.5", 1, "fractions of a second are not supported"},
		{"300+2s", 1, `unexpected 's' in "2s"`},
		{"300d0", 1, "simple delay of 0 seconds"},
		{"300+3601", 1, "increment 3601: at most 3600"},
		{"360001", 1, "360001 seconds: at most 360000"},
		{"9999999999", 1, "too large for seconds"},
		{"40/5400+9999999999", 1, "too large"},
		{strings.Repeat("1/60:", 16) + "60", 0, "17 stages: at most 16"},
	}
	for _, c := range cases {
		_, err := Parse(c.in)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) = %v, want a *ParseError", c.in, err)
			continue
		}
		if pe.Stage != c.stage || !strings.Contains(pe.Fault, c.fault) {
			t.Errorf("Parse(%q): stage %d fault %q; want stage %d and a fault containing %q", c.in, pe.Stage, pe.Fault, c.stage, c.fault)
		}
		if !strings.Contains(err.Error(), `time control "`+c.in+`"`) {
			t.Errorf("Parse(%q): error %q does not quote the input", c.in, err)
		}
	}
}

func TestValidateHandBuilt(t *testing.T) {
	cases := []struct {
		c     Control
		fault string
	}{
		{Control{}, "no stages"},
		{Control{Stages: []Stage{{Time: 1500 * time.Millisecond}}}, "whole seconds"},
		{Control{Stages: []Stage{{Time: mins, Bonus: sec}}}, "bonus of 1s with no increment or delay mode"},
		{Control{Stages: []Stage{{Time: mins, Mode: 9, Bonus: sec}}}, "unknown timing mode"},
		{Control{Stages: []Stage{{Moves: -1, Time: mins}}}, "move count -1"},
		{Control{Stages: []Stage{{Time: -mins}}}, "time -1m0s"},
	}
	for _, c := range cases {
		err := c.c.Validate()
		if err == nil || !strings.Contains(err.Error(), c.fault) {
			t.Errorf("Validate(%+v) = %v, want a fault containing %q", c.c.Stages, err, c.fault)
		}
		if _, nerr := New(c.c, 0); nerr == nil {
			t.Errorf("New(%+v) accepted an invalid control", c.c.Stages)
		}
	}
}

func TestPresets(t *testing.T) {
	for _, n := range PresetNames() {
		c, ok := Preset(n)
		if !ok || c.Name != n || c.Validate() != nil {
			t.Errorf("Preset(%q) = %+v, %v: not a valid preset", n, c, ok)
		}
	}
	if _, ok := Preset("fide-bullet"); ok {
		t.Error("Preset(fide-bullet) exists")
	}
}

func TestCategory(t *testing.T) {
	cases := []struct {
		in   string
		want Category
		a60  time.Duration
	}{
		{"fide-blitz", Blitz, 5 * mins},           // 3 mins + 60 × 2 s
		{"fide-rapid", Rapid, 25 * mins},          // 15 mins + 60 × 10 s
		{"fide-classical", Standard, 150 * mins},  // 90 + 30 + 60 × 30 s
		{"hastings1895", Standard, 4 * time.Hour}, // 2 h, +1 h after 30 and after 45
		{"600", Blitz, 10 * mins},                 // 10 minutes or less is blitz
		{"601", Rapid, 601 * sec},                 // more than 10 minutes
		{"1800+30", Standard, 60 * mins},          // FIDE's own example: 60 minutes is standard
		{"600+5", Rapid, 15 * mins},               // and 10+5 is rapid
		{"40/300:300", Blitz, 10 * mins},          // the second stage begins within 60 moves
		{"60/300:3000", Blitz, 5 * mins},          // ...but not this one
		{"300d5", Blitz, 10 * mins},               // a delay counts as an increment
		{"300d6", Rapid, 11 * mins},
	}
	for _, c := range cases {
		ctl, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if a := ctl.Allotted60(); a != c.a60 {
			t.Errorf("%s: Allotted60 = %v, want %v", c.in, a, c.a60)
		}
		if got := ctl.Category(); got != c.want {
			t.Errorf("%s: Category = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestStageFor(t *testing.T) {
	h, _ := Preset("hastings1895")
	cases := []struct{ n, idx, start int }{
		{0, 0, 0}, {29, 0, 0}, {30, 1, 30}, {44, 1, 30}, {45, 1, 45}, {59, 1, 45}, {60, 1, 60}, {100, 1, 90},
	}
	for _, c := range cases {
		if idx, start := h.stageFor(c.n); idx != c.idx || start != c.start {
			t.Errorf("hastings1895 after %d moves: stage %d from %d, want stage %d from %d", c.n, idx, start, c.idx, c.start)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"300", "300+2", "40/5400+30:1800+30", "30/7200:15/3600", "300d5", "300b5", "hastings1895", "-", "?", "*180", "40/", "1.5", "0", "9999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Fault == "" {
				t.Fatalf("Parse(%q): error %v is not a ParseError with a fault", s, err)
			}
			return
		}
		if verr := c.Validate(); verr != nil {
			t.Fatalf("Parse(%q) accepted a control Validate refuses: %v", s, verr)
		}
		again, err := Parse(c.String())
		if err != nil || !reflect.DeepEqual(again.Stages, c.Stages) {
			t.Fatalf("Parse(%q).String() = %q does not parse back to the same stages: %v", s, c.String(), err)
		}
		k, err := New(c, 0)
		if err != nil {
			t.Fatalf("New refuses a parsed control %q: %v", s, err)
		}
		k.Start(0)
		for i := 1; i <= 200 && k.Status() == Running; i++ {
			side, _ := k.Running()
			k.Press(time.Duration(i)*time.Second, side)
		}
	})
}

func TestAhead(t *testing.T) {
	for _, tc := range []struct {
		control string
		done    int
		toGo    int
		mode    Mode
		bonus   time.Duration
	}{
		{"300+2", 0, 0, Increment, 2 * time.Second},
		{"300+2", 57, 0, Increment, 2 * time.Second},
		{"300", 10, 0, Sudden, 0},
		{"300d5", 3, 0, Delay, 5 * time.Second},
		{"40/5400+30:1800+30", 0, 40, Increment, 30 * time.Second},
		{"40/5400+30:1800+30", 39, 1, Increment, 30 * time.Second},
		{"40/5400+30:1800+30", 40, 0, Increment, 30 * time.Second},
		{"30/7200:15/3600", 29, 1, Sudden, 0},
		{"30/7200:15/3600", 30, 15, Sudden, 0},
		{"30/7200:15/3600", 46, 14, Sudden, 0}, // the repeating last stage
	} {
		c, err := Parse(tc.control)
		if err != nil {
			t.Fatal(err)
		}
		toGo, mode, bonus := c.Ahead(tc.done)
		if toGo != tc.toGo || mode != tc.mode || bonus != tc.bonus {
			t.Errorf("%s after %d moves: %d to go, %v %v; want %d, %v %v", tc.control, tc.done, toGo, mode, bonus, tc.toGo, tc.mode, tc.bonus)
		}
	}
}
