package console

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"testing"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// The pending choice's options in plain words, naming the man the position
// before the offending move shows on the option's first square.
func TestWithWords(t *testing.T) {
	opt := func(id report.OptionID, sqs ...string) report.Option { return report.Option{ID: id, Squares: sqs} }
	tests := []struct {
		name    string
		fen     string
		options []report.Option
		want    []string
	}{
		{"touch-move", board.StartFEN, []report.Option{opt(report.OptStand, "g1", "e4"), opt(report.OptMoveTouched, "g1", "f3", "h3")},
			[]string{"Let the move stand", "He must move the knight on g1"}},
		{"own capture", board.StartFEN, []report.Option{opt(report.OptStand, "c1", "d2"), opt(report.OptMoveTouched, "c1"), opt(report.OptMoveTaken, "d2", "d3", "d4")},
			[]string{"Let the move stand", "He must move the bishop on c1", "He must move the pawn on d2"}},
		{"adverse man touched", "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2", []report.Option{opt(report.OptTakeTouched, "f6"), opt(report.OptKing, "e1", "e2")},
			[]string{"He must take the knight on f6", "He must move his king"}},
		{"several touched", board.StartFEN, []report.Option{opt(report.OptMoveTouched, "g1", "f3"), opt(report.MoveTouchedOn("b1"), "b1", "c3")},
			[]string{"He must move the knight on g1", "He must move the knight on b1"}},
		{"empty square", board.StartFEN, []report.Option{opt(report.OptMoveTouched, "e4")}, []string{"He must move the man he touched"}},
		{"no squares", board.StartFEN, []report.Option{opt(report.OptMoveTouched)}, []string{"He must move the man he touched"}},
		{"bad square", board.StartFEN, []report.Option{opt(report.OptMoveTouched, "z9")}, []string{"He must move the man he touched"}},
		{"bad FEN", "not a fen", []report.Option{opt(report.OptMoveTouched, "g1"), opt(report.OptRestore, "e4")},
			[]string{"He must move the man he touched", "Set up the position before the move again"}},
		{"unknown option", board.StartFEN, []report.Option{opt("shrug", "a1")}, []string{"shrug"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Pending{Kind: report.KindTouchMove, Options: tt.options}
			got := withWords(p, tt.fen)
			if !slices.Equal(got.Words, tt.want) {
				t.Errorf("words %q, want %q", got.Words, tt.want)
			}
			if p.Words != nil {
				t.Error("the board's own Pending was changed")
			}
		})
	}
	if withWords(nil, board.StartFEN) != nil {
		t.Error("no choice waiting came back as one")
	}
}

// Over HTTP: the state's pending choice carries its words, GET
// /api/options every option's, and a spectator's ruling is refused
// without citing a law of any code.
func TestWordsOverHTTP(t *testing.T) {
	r := newRig(t, rigOptions{laws: "sarratt1808"})
	s := r.stream(t)
	r.input(t, `{"lift":"g1"}`)
	hold()
	r.input(t, `{"place":"g1"}`)
	r.input(t, `{"lift":"e2"}`)
	r.input(t, `{"place":"e4"}`)
	st := s.waitState(t, "the touch-move", func(st State) bool { return st.Pending != nil })
	if want := []string{"Let the move stand", "He must move the knight on g1"}; !slices.Equal(st.Pending.Words, want) {
		t.Errorf("event stream: words %q, want %q", st.Pending.Words, want)
	}
	res, err := http.Get(r.api("state"))
	if err != nil {
		t.Fatal(err)
	}
	var got State
	err = json.NewDecoder(res.Body).Decode(&got)
	res.Body.Close()
	if err != nil || got.Pending == nil || len(got.Pending.Words) != 2 {
		t.Errorf("GET state: pending %+v (%v), want two options in words", got.Pending, err)
	}

	res, err = http.Get(r.url + "/api/options")
	if err != nil {
		t.Fatal(err)
	}
	var words map[string]string
	err = json.NewDecoder(res.Body).Decode(&words)
	res.Body.Close()
	if err != nil || words["stand"] != "Let the move stand" || words["move-touched"] != "He must move the man he touched" || len(words) != len(report.OptionWords()) {
		t.Errorf("GET /api/options: %v (%v)", words, err)
	}

	status, out := r.post(t, "arbiter", `{"action":"choose","option":"stand"}`, nil)
	msg, _ := out["error"].(string)
	if status != http.StatusUnauthorized || regexp.MustCompile(`\b[a-z]+[0-9]*:[A-Z0-9.]+`).MatchString(msg) {
		t.Errorf("spectator ruling in a Sarratt game: %d %q: want 401 citing no law", status, msg)
	}
}

// BenchmarkWithWords measures the words put on a pending choice, which the
// server does for every state it sends while a choice waits.
func BenchmarkWithWords(b *testing.B) {
	p := &Pending{Kind: report.KindTouchMove, Options: []report.Option{
		{ID: report.OptStand, Squares: []string{"g1", "e4"}},
		{ID: report.OptMoveTouched, Squares: []string{"g1", "f3", "h3"}},
	}}
	b.ReportAllocs()
	for b.Loop() {
		withWords(p, board.StartFEN)
	}
}
