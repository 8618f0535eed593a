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
