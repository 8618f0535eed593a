package console

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/timing"
)

const testToken = "0123456789abcdef0123456789abcdef"

// rig is a real game driven in real time by a runner, a Local board over
// it, and the console served by httptest.
type rig struct {
	runner *game.Runner
	local  *Local
	srv    *Server
	http   *httptest.Server
	url    string
	board  string
}

type rigOptions struct {
	laws      string
	hardware  bool   // not simulated
	token     string // "-" for none
	extraHost string
	opponent  OpponentSource
	// opponentFor makes the board's opponent over its runner (an engine).
	opponentFor func(t testing.TB, r *game.Runner) OpponentSource
	// timing are the game's gesture timings (the defaults if zero).
	timing game.Timing
	// faults are the faults beside the game (LocalOptions.Faults).
	faults func() []string
	// setup is the FEN the game starts from, with the board still showing
	// the start position, to be set up; remote, the sides played from off
	// the board from the start.
	setup  string
	remote [2]bool
	// timeControl sets the game's clocks (clock.Parse).
	timeControl string
	// tags are the game's PGN tags.
	tags map[string]string
	// pair is the board's pairing with another (LocalOptions.Pair).
	pair func() *Pair
}

func newRig(t testing.TB, o rigOptions) *rig {
	t.Helper()
	if o.laws == "" {
		o.laws = "fide2023"
	}
	opts := game.Options{Laws: o.laws, Timing: o.timing, Setup: o.setup, Remote: o.remote, TimeControl: o.timeControl, Tags: o.tags}
	if o.setup != "" {
		start, err := board.ParseFEN(board.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		occ := start.Occupancy()
		opts.Physical = &occ
	}
	p, err := game.New(opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := game.NewRunner(p, timing.NewReal())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		runner.Run(ctx)
	}()
	if o.opponentFor != nil {
		o.opponent = o.opponentFor(t, runner)
	}
	local, err := NewLocal(runner, LocalOptions{ID: "test", Simulated: !o.hardware, Poll: 50 * time.Millisecond, Opponent: o.opponent, Faults: o.faults, Pair: o.pair})
	if err != nil {
		t.Fatal(err)
	}
	token := testToken
	if o.token == "-" {
		token = ""
	} else if o.token != "" {
		token = o.token
	}
	var hosts []string
	if o.extraHost != "" {
		hosts = []string{o.extraHost}
	}
	srv, err := New(Options{Boards: []Board{local}, Token: token, Hosts: hosts, Ping: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		local.Close()
		cancel()
		<-done
	})
	return &rig{runner: runner, local: local, srv: srv, http: hs, url: hs.URL, board: "test"}
}

func (r *rig) api(path string) string { return r.url + "/api/boards/" + r.board + "/" + path }

// post sends a JSON body with the headers given and returns the status and
// the decoded answer.
func (r *rig) post(t testing.TB, path, body string, headers map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.api(path), strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return do(t, req)
}

func do(t testing.TB, req *http.Request) (int, map[string]any) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s %s: answer is not a JSON object: %q", req.Method, req.URL.Path, data)
	}
	return res.StatusCode, out
}

// input posts one player input and fails the test unless it is taken.
func (r *rig) input(t testing.TB, body string) {
	t.Helper()
	if status, out := r.post(t, "input", body, nil); status != http.StatusOK {
		t.Fatalf("input %s: %d %v", body, status, out)
	}
}

// stream follows a board's event stream.
type stream struct {
	events chan sseEvent
	cancel context.CancelFunc
}

type sseEvent struct {
	name, id string
	data     []byte
}

func (r *rig) stream(t testing.TB) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, r.api("events"), nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		cancel()
		t.Fatalf("events: Content-Type %q", ct)
	}
	s := &stream{events: make(chan sseEvent, 1024), cancel: cancel}
	go func() {
		defer res.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					s.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "event: "):
				ev.name = line[7:]
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "data: "):
				ev.data = []byte(line[6:])
			}
		}
	}()
	t.Cleanup(cancel)
	return s
}

// waitState reads state events until one satisfies ok; it fails the test
// after 10 s (the board works in real time: a move settles in 250 ms).
func (s *stream) waitState(t testing.TB, what string, ok func(State) bool) State {
	t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	var last State
	for {
		select {
		case ev, open := <-s.events:
			if !open {
				t.Fatalf("waiting for %s: the stream ended", what)
			}
			if ev.name != "state" {
				continue
			}
			var st State
			if err := json.Unmarshal(ev.data, &st); err != nil {
				t.Fatalf("state event: %v: %s", err, ev.data)
			}
			if ok(st) {
				return st
			}
			last = st
		case <-timeout.C:
			js, _ := json.MarshalIndent(last, "", " ")
			t.Fatalf("waiting for %s: not seen in 10 s; last state:\n%s", what, js)
		}
	}
}

// waitReport reads events until a report of type typ comes.
func (s *stream) waitReport(t testing.TB, typ string) map[string]any {
	t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for {
		select {
		case ev, open := <-s.events:
			if !open {
				t.Fatalf("waiting for a %s report: the stream ended", typ)
			}
			if ev.name != "report" {
				continue
			}
			var rep map[string]any
			if err := json.Unmarshal(ev.data, &rep); err != nil {
				t.Fatalf("report event: %v: %s", err, ev.data)
			}
			if rep["type"] == typ {
				return rep
			}
		case <-timeout.C:
			t.Fatalf("no %s report in 10 s", typ)
		}
	}
}

func sans(st State) string {
	var b bytes.Buffer
	for i, m := range st.Moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.SAN)
	}
	return b.String()
}

func hasMoves(want string) func(State) bool {
	return func(st State) bool { return sans(st) == want }
}

func optionIDs(p *Pending) string {
	if p == nil {
		return "<none>"
	}
	ids := make([]string, len(p.Options))
	for i, o := range p.Options {
		ids[i] = string(o.ID)
	}
	return fmt.Sprint(ids)
}
