package computer

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseLevel(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Level
		err  string // part of the error; "" for none
	}{
		{"", Level{}, ""},
		{"default", Level{}, ""},
		{"elo:1500", Level{Strength: StrengthElo, Elo: 1500}, ""},
		{" ELO : 1200 , movetime : 2s ", Level{Strength: StrengthElo, Elo: 1200, Limit: Limit{MoveTime: 2 * time.Second}}, ""},
		{"skill:0", Level{Strength: StrengthSkill, Skill: 0}, ""},
		{"skill:3,movetime:500ms", Level{Strength: StrengthSkill, Skill: 3, Limit: Limit{MoveTime: 500 * time.Millisecond}}, ""},
		{"depth:8", Level{Strength: StrengthFull, Limit: Limit{Depth: 8}}, ""},
		{"nodes:20000,depth:12", Level{Strength: StrengthFull, Limit: Limit{Depth: 12, Nodes: 20000}}, ""},
		{"full", Level{Strength: StrengthFull}, ""},
		{"full,movetime:1m", Level{Strength: StrengthFull, Limit: Limit{MoveTime: time.Minute}}, ""},
		{"elo:1500,skill:3", Level{}, "only one of"},
		{"elo", Level{}, "needs a value"},
		{"full:3", Level{}, "takes no value"},
		{"elo:0", Level{}, "above 0"},
		{"elo:abc", Level{}, "whole number"},
		{"skill:-1", Level{}, "whole number"},
		{"movetime:0s", Level{}, "at least 1ms"},
		{"movetime:fast", Level{}, "invalid duration"},
		{"depth:0", Level{}, "at least 1"},
		{"nodes:0", Level{}, "at least 1"},
		{"strong", Level{}, "unknown item"},
		{"elo:1500,", Level{}, "empty item"},
	} {
		got, err := ParseLevel(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "computer: level") {
				t.Errorf("ParseLevel(%q) = %+v, %v; want an error with %q", tc.text, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseLevel(%q) = %+v, %v; want %+v", tc.text, got, err, tc.want)
		}
	}
}

// FuzzParseLevel: any text parses or fails cleanly, and a level that parses
// parses again the same from its own description where that is in the flag
// syntax.
func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{"", "elo:1500", "skill:3,movetime:500ms", "depth:8,nodes:100", "full", "elo:1,elo:2", "movetime:1h2m3s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, err := ParseLevel(text)
		if err != nil {
			return
		}
		if l.Strength < StrengthDefault || l.Strength > StrengthFull || l.Elo < 0 || l.Skill < 0 || l.Limit.Depth < 0 || l.Limit.Nodes < 0 || l.Limit.MoveTime < 0 {
			t.Fatalf("ParseLevel(%q) = %+v", text, l)
		}
		_ = l.String()
	})
}

func TestParseOptionLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want engineOption
		err  string
	}{
		{"option name Skill Level type spin default 20 min 0 max 20", engineOption{Name: "Skill Level", Type: "spin", Default: "20", Min: 0, Max: 20, HasRange: true}, ""},
		{"option name UCI_Elo type spin default 1350 min 1350 max 2850", engineOption{Name: "UCI_Elo", Type: "spin", Default: "1350", Min: 1350, Max: 2850, HasRange: true}, ""},
		{"option name Debug Log File type string default ", engineOption{Name: "Debug Log File", Type: "string"}, ""},
		{"option name SyzygyPath type string default <empty>", engineOption{Name: "SyzygyPath", Type: "string", Default: "<empty>"}, ""},
		{"option name Clear Hash type button", engineOption{Name: "Clear Hash", Type: "button"}, ""},
		{"option name Style type combo default Normal var Solid var Normal var Risky", engineOption{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}}, ""},
		{"option  name  Nullmove   type check default true", engineOption{Name: "Nullmove", Type: "check", Default: "true"}, ""},
		{"option name Half type spin default 3 min 1", engineOption{Name: "Half", Type: "spin", Default: "3", Min: 1}, ""},
		{"option type spin", engineOption{}, "before name"},
		{"option name X", engineOption{}, "type"},
		{"option name X type wheel", engineOption{}, "type \"wheel\""},
		{"option name X type spin min a max 3", engineOption{}, "not a whole number"},
		{"option name X type spin min 5 max 3", engineOption{}, "above max"},
		{"option name X type spin default 1 default 2", engineOption{}, "given twice"},
		{"id name X", engineOption{}, "want"},
	} {
		got, err := parseOptionLine(tc.line)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseOptionLine(%q) = %+v, %v; want an error with %q", tc.line, got, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseOptionLine(%q) = %+v, %v; want %+v", tc.line, got, err, tc.want)
		}
	}
}

func FuzzParseOptionLine(f *testing.F) {
	for _, s := range []string{"option name Skill Level type spin default 20 min 0 max 20", "option name Style type combo default Normal var Solid var Risky", "option name A type button"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		o, err := parseOptionLine(line)
		if err != nil {
			return
		}
		if o.Name == "" || o.HasRange && o.Min > o.Max {
			t.Fatalf("parseOptionLine(%q) = %+v", line, o)
		}
	})
}

// stockfishOptions are the strength options Stockfish 15 and 16 advertise.
func stockfishOptions(t *testing.T) engineOptions {
	opts := engineOptions{}
	for _, l := range []string{
		"option name Skill Level type spin default 20 min 0 max 20",
		"option name UCI_LimitStrength type check default false",
		"option name UCI_Elo type spin default 1320 min 1320 max 3190",
	} {
		o, err := parseOptionLine(l)
		if err != nil {
			t.Fatal(err)
		}
		opts[strings.ToLower(o.Name)] = o
	}
	return opts
}

func TestResolveLevel(t *testing.T) {
	sf := stockfishOptions(t)
	skillOnly := engineOptions{"skill level": sf["skill level"]}
	none := engineOptions{}
	for _, tc := range []struct {
		name     string
		level    Level
		opts     engineOptions
		text     string
		settings []setting
		err      string
	}{
		{"default with Elo", Level{}, sf, "Elo 1500",
			[]setting{{"Skill Level", "20"}, {"UCI_Elo", "1500"}, {"UCI_LimitStrength", "true"}}, ""},
		{"default with Skill Level only", Level{}, skillOnly, "Skill Level 5", []setting{{"Skill Level", "5"}}, ""},
		{"default without either", Level{}, none, "1s a move", nil, ""},
		{"Elo clamped up", Level{Strength: StrengthElo, Elo: 800}, sf, "Elo 1320",
			[]setting{{"Skill Level", "20"}, {"UCI_Elo", "1320"}, {"UCI_LimitStrength", "true"}}, ""},
		{"Elo clamped down", Level{Strength: StrengthElo, Elo: 4000, Limit: Limit{MoveTime: 2 * time.Second}}, sf, "Elo 3190, 2s a move",
			[]setting{{"Skill Level", "20"}, {"UCI_Elo", "3190"}, {"UCI_LimitStrength", "true"}}, ""},
		{"Skill Level", Level{Strength: StrengthSkill, Skill: 3}, sf, "Skill Level 3",
			[]setting{{"UCI_LimitStrength", "false"}, {"Skill Level", "3"}}, ""},
		{"Skill Level clamped", Level{Strength: StrengthSkill, Skill: 99}, sf, "Skill Level 20",
			[]setting{{"UCI_LimitStrength", "false"}, {"Skill Level", "20"}}, ""},
		{"fixed depth at full strength", Level{Strength: StrengthFull, Limit: Limit{Depth: 8}}, sf, "depth 8",
			[]setting{{"UCI_LimitStrength", "false"}, {"Skill Level", "20"}}, ""},
		{"Elo without UCI_Elo", Level{Strength: StrengthElo, Elo: 1500}, skillOnly, "", nil, "no UCI_LimitStrength and UCI_Elo"},
		{"Skill Level without one", Level{Strength: StrengthSkill, Skill: 3}, none, "", nil, "no Skill Level"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := resolve(tc.level, tc.opts, DefaultMoveTime)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %+v, %v; want an error with %q", st, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.text != tc.text || !reflect.DeepEqual(st.settings(tc.opts), tc.settings) {
				t.Errorf("got %q %v, want %q %v", st.text, st.settings(tc.opts), tc.text, tc.settings)
			}
		})
	}
}

func TestScoreAndDrawPolicy(t *testing.T) {
	for _, tc := range []struct {
		s    Score
		text string
	}{
		{Score{Centipawns: 35}, "+0.35"}, {Score{Centipawns: -150}, "-1.50"}, {Score{}, "0.00"},
		{Score{Mate: 3}, "#3"}, {Score{Mate: -2}, "#-2"}, {Score{Centipawns: 1234}, "+12.34"},
	} {
		if got := tc.s.String(); got != tc.text {
			t.Errorf("%+v.String() = %q, want %q", tc.s, got, tc.text)
		}
	}
	if n := (Score{Centipawns: 20, Lower: true}).Negate(); n != (Score{Centipawns: -20, Upper: true}) {
		t.Errorf("negated %+v", n)
	}
	d := DefaultDrawPolicy()
	for _, tc := range []struct {
		own    Score
		move   int
		accept bool
	}{
		{Score{Centipawns: -150}, 10, true},
		{Score{Centipawns: -149}, 10, false},
		{Score{Mate: -5}, 10, true},
		{Score{Mate: 5}, 60, false},
		{Score{Centipawns: 10}, 39, false},
		{Score{Centipawns: 10}, 40, true},
		{Score{Centipawns: -15}, 40, true},
		{Score{Centipawns: 16}, 80, false},
	} {
		if got := d.Accepts(tc.own, tc.move); got != tc.accept {
			t.Errorf("Accepts(%v, move %d) = %v", tc.own, tc.move, got)
		}
	}
	if (DrawPolicy{Never: true}).Accepts(Score{Mate: -1}, 100) {
		t.Error("Never accepted")
	}
}
