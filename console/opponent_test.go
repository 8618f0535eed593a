package console

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/boardd/boardd/opponent"
)

// fakeOpponent takes commands and says what it is.
type fakeOpponent struct {
	mu       sync.Mutex
	commands []string
	watch    func()
	// fault and recovered are what it says of its faults.
	fault, recovered string
	// side is the side it plays: black if empty.
	side string
}

func (f *fakeOpponent) Opponent() *Opponent {
	f.mu.Lock()
	defer f.mu.Unlock()
	side := f.side
	if side == "" {
		side = "black"
	}
	return &Opponent{Name: "Fake 1.0", Level: "Elo 1500", Side: side, Thinking: f.fault == "", Move: "e5",
		Eval: &Evaluation{Score: "+0.35", Centipawns: 35, Depth: 12, PV: []string{"e5", "Nf3"}}, Commands: opponent.Commands(),
		Fault: f.fault, Recovered: f.recovered}
}

// setFaults changes what it says of its faults, and tells its watcher.
func (f *fakeOpponent) setFaults(fault, recovered string) {
	f.mu.Lock()
	f.fault, f.recovered = fault, recovered
	w := f.watch
	f.mu.Unlock()
	if w != nil {
		w()
	}
}

func (f *fakeOpponent) Command(ctx context.Context, command, value string) error {
	if command == "takeback" && value == "2" {
		return &RefusedError{errors.New("take back 2 moves: only 0 played")}
	}
	f.mu.Lock()
	f.commands = append(f.commands, command+" "+value)
	w := f.watch
	f.mu.Unlock()
	if w != nil {
		w()
	}
	return nil
}

func (f *fakeOpponent) Watch(fn func()) func() {
	f.mu.Lock()
	f.watch = fn
	f.mu.Unlock()
	return func() {}
}

func (f *fakeOpponent) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.commands...)
}

// The engine's commands: the player at a simulated board may give them
// from the page, as he may play; on a board with sensors only the arbiter
// may (the player has the board's buttons). The state carries the engine
// for everyone who watches.
func TestOpponentCommands(t *testing.T) {
	auth := map[string]string{"Authorization": "Bearer " + testToken}
	for _, tc := range []struct {
		name     string
		hardware bool
		headers  map[string]string
		body     string
		status   int
	}{
		{"player on a simulated board", false, nil, `{"command":"hint"}`, http.StatusOK},
		{"the arbiter", false, auth, `{"command":"side","value":"white"}`, http.StatusOK},
		{"player on a sensor board", true, nil, `{"command":"hint"}`, http.StatusUnauthorized},
		{"the arbiter on a sensor board", true, auth, `{"command":"level","value":"elo:1800"}`, http.StatusOK},
		{"a foreign host", false, map[string]string{"Host": "evil.example"}, `{"command":"hint"}`, http.StatusForbidden},
		{"a wrong token", false, map[string]string{"Authorization": "Bearer nope"}, `{"command":"hint"}`, http.StatusUnauthorized},
		{"an unknown command", false, nil, `{"command":"castle"}`, http.StatusBadRequest},
		{"an unknown key", false, nil, `{"command":"hint","side":"white"}`, http.StatusBadRequest},
		{"refused by the game", false, nil, `{"command":"takeback","value":"2"}`, http.StatusConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeOpponent{}
			r := newRig(t, rigOptions{hardware: tc.hardware, opponent: f})
			req, _ := http.NewRequest(http.MethodPost, r.api("opponent"), strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tc.headers {
				if k == "Host" {
					req.Host = v
					continue
				}
				req.Header.Set(k, v)
			}
			status, out := do(t, req)
			if status != tc.status {
				t.Fatalf("status %d (%v), want %d", status, out, tc.status)
			}
			if n := len(f.got()); (status == http.StatusOK) != (n == 1) {
				t.Errorf("%d commands reached the engine: %v", n, f.got())
			}
		})
	}
	t.Run("the state", func(t *testing.T) {
		r := newRig(t, rigOptions{opponent: &fakeOpponent{}})
		st, err := r.local.State(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if o := st.Opponent; o == nil || o.Name != "Fake 1.0" || o.Eval == nil || o.Eval.Score != "+0.35" || len(o.Eval.PV) != 2 {
			t.Errorf("opponent %+v", st.Opponent)
		}
	})
	t.Run("a board with no engine", func(t *testing.T) {
		r := newRig(t, rigOptions{})
		status, out := r.post(t, "opponent", `{"command":"hint"}`, nil)
		if status != http.StatusNotImplemented {
			t.Errorf("status %d (%v)", status, out)
		}
		if st, _ := r.local.State(context.Background()); st.Opponent != nil {
			t.Errorf("opponent %+v", st.Opponent)
		}
	})
}
