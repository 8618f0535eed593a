package daemon

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/button"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/trace"
	"github.com/boardd/boardd/voice"
)

// TestVoiceSpeaksTheGame: a board run with [voice] hands each move to the
// speech program as it is made, in the convention asked for; a speech
// program that is missing leaves the game going on, and says so in the log.
func TestVoiceSpeaksTheGame(t *testing.T) {
	for _, c := range []struct {
		name, language, convention string
		missing                    bool
		want                       []string
	}{
		{"plain English", "en", "plain", false, []string{"pawn from e2 to e4", "pawn from e7 to e5", "knight from g1 to f3"}},
		{"Appendix D in German", "de", "appendix-d", false, []string{"Bauer Eva zwei Eva vier", "Bauer Eva sieben Eva fuenf", "Springer Gustav eins Felix drei"}},
		{"the speech program missing", "en", "plain", true, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			said := filepath.Join(dir, "said.txt")
			program := filepath.Join(dir, "fake-espeak")
			script := fmt.Sprintf("#!/bin/sh\necho \"$@\" >>%q\ncat >>%q\necho >>%q\n", said+".args", said, said)
			if err := os.WriteFile(program, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			if c.missing {
				program = filepath.Join(dir, "no-such-espeak")
			}
			cfg := writeFile(t, "boardd.toml", fmt.Sprintf("[voice]\nprogram = %q\nargs = [\"-a\", \"150\"]\n", program))
			in, feed := io.Pipe()
			t.Cleanup(func() { feed.Close() })
			state := filepath.Join(dir, "state")
			r := runDaemon(t, Options{Config: cfg, StateDir: state, Listen: "127.0.0.1:0", Input: "-", Stdin: in,
				Voice: c.language, VoiceConvention: c.convention})
			go feed.Write(moveLines(t, "e2e4", "e7e5", "g1f3"))
			deadline := time.Now().Add(30 * time.Second)
			for {
				got, _ := os.ReadFile(said)
				lines := strings.Split(strings.TrimSpace(string(got)), "\n")
				if c.missing {
					if len(journalMoves(t, state)) == 3 {
						if log := r.log.String(); !strings.Contains(log, "boardd will not be heard; the game goes on") || !strings.Contains(log, "no-such-espeak") {
							t.Errorf("the log does not say the speech program is missing:\n%s", log)
						}
						return
					}
				} else if len(lines) >= len(c.want) {
					if strings.Join(lines, "|") != strings.Join(c.want, "|") {
						t.Errorf("said %q, want %q", lines, c.want)
					}
					args, _ := os.ReadFile(said + ".args")
					if !strings.HasPrefix(string(args), "-v "+c.language+" -a 150 --stdin") {
						t.Errorf("the program's arguments: %q, want -v %s -a 150 --stdin", args, c.language)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("after 30 s: said %q, journal %v", lines, journalMoves(t, state))
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

func TestVoiceFlagsRefused(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Voice: "fr"}, `--voice (voice.language) = "fr": expected "off", "en" (English) or "de" (German)`},
		{Options{Voice: "en", VoiceConvention: "german"}, `--voice-convention (voice.convention) = "german": expected "plain"`},
	} {
		d, _ := testDaemon(t, c.o)
		err := d.configure()
		var ue UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a usage error containing %q", c.o, err, c.want)
		}
	}
}

// TestVoiceButtonHolds: the clock button held reads both clocks (or says
// none runs), the j'adoube button held repeats the last move, both held
// read the position.
func TestVoiceButtonHolds(t *testing.T) {
	for _, c := range []struct {
		name    string
		clock   string
		buttons []string
		want    string
	}{
		{"clock", "300+2", []string{"clock"}, "White 5 minutes 1 second, Black 5 minutes."},
		{"no clock", "", []string{"clock"}, "No clock runs."},
		{"jadoube", "", []string{"jadoube"}, "pawn from e2 to e4"},
		{"both", "", []string{"clock", "jadoube"}, "White: king e1, queen d1"},
		{"check held asks nothing", "", []string{"check"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var said []string
			rec := func(s string) { said = append(said, s) }
			w := voice.Words{}
			s := &speech{announcer: voice.NewAnnouncer(w, rec), words: w, say: rec}
			g, err := game.New(game.Options{Laws: "fide2023", TimeControl: c.clock, ClockAtFirstInput: true}, s.announcer.Report)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []trace.Line{{T: 0, Kind: trace.Lift, Square: board.NewSquare(4, 1)}, {T: 200 * time.Millisecond, Kind: trace.Place, Square: board.NewSquare(4, 3)}} {
				if err := g.Input(l); err != nil {
					t.Fatal(err)
				}
			}
			g.Advance(2 * time.Second)
			s.announcer.Snapshot(g.Snapshot())
			said = nil
			s.hold(button.Hold{Side: "white", Buttons: c.buttons})
			got := strings.Join(said, " | ")
			if c.want == "" && got != "" || !strings.HasPrefix(got, c.want) {
				t.Errorf("said %q, want %q", got, c.want)
			}
		})
	}
}
