package voice

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
)

// update rewrites testdata/golden/*.txt: go test ./voice -run TestGolden
// -update, then review the diff.
var update = flag.Bool("update", false, "rewrite the voice's golden words")

// goldenGames are the games whose every announcement is checked: boardd's
// own short games, and law scenarios (an irregularity with its options and
// ruling, a flag fall, a mate).
var goldenGames = []string{
	"testdata/short-game.trace",
	"testdata/promotion.trace",
	"../testdata/laws/fide2023-checkmate-ends-the-game.trace",
	"../testdata/laws/fide2023-flag-fall.trace",
	"../testdata/laws/fide2023-touch-move-lapse.trace",
	"../testdata/laws/fide2023-false-castling.trace",
	"../testdata/laws/fide2023-illegal-move-two-minutes.trace",
	"../testdata/laws/nycc-several-touched-adversary-elects.trace",
	"../testdata/laws/fide2023-false-en-passant.trace",
}

// settings are the ways the goldens are spoken.
var settings = []Words{
	{Lang: English, Convention: Plain},
	{Lang: English, Convention: AppendixD},
	{Lang: German, Convention: Plain},
	{Lang: German, Convention: AppendixD},
}

// speakGame plays a trace through a game, as the daemon's runner would,
// and returns every line the announcer says, then the clocks and the
// position asked for at the end.
func speakGame(t *testing.T, path string, w Words) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opts := game.Options{ClockAtFirstInput: true}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "# laws: "); ok {
			opts.Laws = v
		}
		if v, ok := strings.CutPrefix(line, "# flags: "); ok {
			tc, ok := strings.CutPrefix(v, "--time-control ")
			if !ok {
				t.Fatalf("%s: flags %q: only --time-control is read here", path, v)
			}
			opts.TimeControl = tc
		}
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	var said []string
	a := NewAnnouncer(w, func(s string) { said = append(said, s) })
	var g *game.Game
	tr := trace.NewReader(f)
	var last trace.Line
	for {
		l, err := tr.Next()
		if err != nil {
			break
		}
		if g == nil {
			if l.Kind == trace.Setup {
				opts.Setup = l.FEN
				continue
			}
			if g, err = game.New(opts, a.Report); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			a.Snapshot(g.Snapshot())
		}
		if err := g.Input(l); err != nil {
			t.Fatalf("%s line %d: %v", path, tr.LineNumber(), err)
		}
		a.Snapshot(g.Snapshot())
		last = l
	}
	g.Advance(last.T + 1000*1000*1000)
	a.Snapshot(g.Snapshot())
	a.say = func(s string) { said = append(said, "(asked) "+s) }
	a.RepeatLast()
	a.Clocks()
	a.Position()
	return said
}

func TestGoldenWordsOfWholeGames(t *testing.T) {
	for _, path := range goldenGames {
		name := strings.TrimSuffix(filepath.Base(path), ".trace")
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			for _, w := range settings {
				fmt.Fprintf(&b, "## %s %s\n", w.Lang, w.Convention)
				for _, s := range speakGame(t, path, w) {
					b.WriteString(s + "\n")
				}
			}
			golden := filepath.Join("testdata", "golden", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("%s: the words differ from %s:\n%s", path, golden, diffLines(string(want), got))
			}
		})
	}
}

// diffLines shows the first lines where want and got part.
func diffLines(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n  want %q\n  got  %q\n", i+1, w, g)
			if b.Len() > 2000 {
				break
			}
		}
	}
	return b.String()
}
