package hwtest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
)

// updateGolden rewrites the golden digests of `boardd replay`'s output over
// the synthesised corpus: go test ./hwtest -run TestReplayOutputGolden -update.
var updateGolden = flag.Bool("update", false, "rewrite testdata/golden/replay-corpus.txt from the current output")

// goldenPath holds one line per corpus game and form: the game's name, the
// form (events, frames, or hard: events with the hardest replies), the law-set, and the SHA-256 of the exact bytes
// `boardd replay` writes for the synthesised trace.
var goldenPath = filepath.Join("testdata", "golden", "replay-corpus.txt")

// replayDigest synthesises game g as `boardd replay` would read it (trace
// text), replays it through the same entry point and returns the digest of
// its output.
func replayDigest(s *Synthesiser, g *Game, seed uint64, frames bool) (string, error) {
	lines, err := s.Events(g, seed)
	if err != nil {
		return "", err
	}
	if frames {
		if lines, err = s.Frames(lines, seed); err != nil {
			return "", err
		}
	}
	var text []byte
	for _, l := range lines {
		text = trace.Append(text, l)
	}
	var out bytes.Buffer
	if err := game.Replay(context.Background(), bytes.NewReader(text), &out, game.Options{Laws: s.Options().Laws}); err != nil {
		return "", err
	}
	sum := sha256.Sum256(out.Bytes())
	return hex.EncodeToString(sum[:]), nil
}

// TestReplayOutputGolden checks that `boardd replay` writes, byte for byte,
// what it wrote when the digests were taken, for every corpus game as events,
// as bouncing frames and with the hardest replies (a sample under -race or -short). A change of
// behaviour that is meant shows here first: rerun with -update and review.
func TestReplayOutputGolden(t *testing.T) {
	games := loadTestCorpus(t)
	want := map[string]string{}
	if !*updateGolden {
		data, err := os.ReadFile(goldenPath)
		if err != nil {
			t.Fatalf("golden digests: %v (create them with -update)", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			if len(f) == 4 {
				want[f[0]+" "+f[1]+" "+f[2]] = f[3]
			}
		}
	}
	// The forms each game is replayed in: events and bouncing frames with
	// the default hands, and events with the hardest replies.
	forms := []string{"events", "frames", "hard"}
	type job struct{ game, form int }
	got := make([]string, len(forms)*len(games))
	errs := make([]error, len(forms)*len(games))
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			synths := map[string]*Synthesiser{}
			for j := range jobs {
				g := &games[j.game]
				seed := gameSeed(g)
				laws := corpusLaws[seed%uint64(len(corpusLaws))]
				form := forms[j.form]
				i := len(forms)*j.game + j.form
				style := DefaultStyle()
				if form == "hard" {
					style = HardStyle()
				}
				s := synths[laws+form]
				if s == nil {
					var err error
					if s, err = NewSynthesiser(SynthOptions{Seed: corpusSeed, Laws: laws, Style: style}); err != nil {
						errs[i] = err
						continue
					}
					synths[laws+form] = s
				}
				d, err := replayDigest(s, g, seed, form == "frames")
				errs[i] = err
				got[i] = fmt.Sprintf("%s %s %s %s", strings.ReplaceAll(g.Name, " ", "_"), form, laws, d)
			}
		})
	}
	for i := range games {
		for f := range forms {
			jobs <- job{i, f}
		}
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if *updateGolden {
		if len(games) < 780 {
			t.Fatalf("-update needs the whole corpus (%d games read): run without -race and -short", len(games))
		}
		sort.Strings(got)
		if err := os.WriteFile(goldenPath, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	changed := 0
	for _, line := range got {
		f := strings.Fields(line)
		key := f[0] + " " + f[1] + " " + f[2]
		w, ok := want[key]
		switch {
		case !ok:
			t.Errorf("%s: no golden digest (rerun with -update)", key)
		case w != f[3]:
			changed++
			if changed <= 10 {
				t.Errorf("%s: boardd replay's output changed", key)
			}
		}
	}
	if changed > 0 {
		t.Errorf("%d of %d replays changed their output", changed, len(got))
	}
}
