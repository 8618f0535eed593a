package lichess

import (
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

// readLines returns the non-blank lines of a testdata stream.
func readLines(t testing.TB, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	r := NewLineReader(bytes.NewReader(data))
	for {
		line, keep, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if !keep {
			out = append(out, bytes.Clone(line))
		}
	}
}

func TestDecodeGameStream(t *testing.T) {
	lines := readLines(t, "game-stream.ndjson")
	var got []GameEvent
	for i, l := range lines {
		ev, err := DecodeGameEvent(l)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		got = append(got, ev)
	}
	state := func(moves string, w, b time.Duration) GameState {
		return GameState{Moves: mv(moves), WhiteTime: w, BlackTime: b, WhiteIncrement: 10 * time.Second, BlackIncrement: 10 * time.Second, Status: StatusStarted}
	}
	s := time.Second
	want := []GameEvent{
		&GameFull{
			ID: "q7ZvsdUF", Variant: "standard", Clock: &ClockConfig{Initial: 15 * time.Minute, Increment: 10 * s}, Speed: "rapid", Perf: "Rapid",
			Rated: true, CreatedAt: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC),
			White:      Player{ID: "boarddplayer", Name: "BoarddPlayer", Rating: 1612},
			Black:      Player{ID: "kasparov7", Name: "Kasparov7", Title: "FM", Rating: 2210, Provisional: true},
			InitialFEN: board.StartFEN, State: state("", 900*s, 900*s),
		},
		ptr(state("e2e4", 900*s, 900*s)),
		ptr(state("e2e4 c7c5", 900*s, 898120*time.Millisecond)),
		&ChatLine{Room: "player", Username: "Kasparov7", Text: "Good luck!"},
		func() *GameState {
			st := state("e2e4 c7c5 g1f3", 893500*time.Millisecond, 898120*time.Millisecond)
			st.BlackOffersDraw = true
			return &st
		}(),
		&OpponentGone{Gone: true, ClaimWinIn: 30 * s, HasClaimTime: true},
		&OpponentGone{Gone: false},
		func() *GameState {
			st := state("e2e4 c7c5 g1f3 d7d6", 893500*time.Millisecond, 880002*time.Millisecond)
			st.WhiteProposesTakeback = true
			return &st
		}(),
		func() *GameState {
			st := state("e2e4 c7c5 g1f3 d7d6 f1b5", 876400*time.Millisecond, 880002*time.Millisecond)
			st.Status, st.Winner = StatusResign, "white"
			return &st
		}(),
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("line %d:\n got %+v\nwant %+v", i+1, got[i], want[i])
		}
	}
	full := got[0].(*GameFull)
	if side, ok := full.SideOf("BoarddPlayer"); !ok || side != board.White {
		t.Errorf("SideOf(BoarddPlayer) = %v %v", side, ok)
	}
	if _, ok := full.SideOf("someone"); ok {
		t.Error("SideOf(someone) found a side")
	}
	last := got[len(got)-1].(*GameState)
	if last.Result() != "1-0" || !last.Status.Finished() {
		t.Errorf("final state: result %s finished %v", last.Result(), last.Status.Finished())
	}
}

func ptr[T any](v T) *T { return &v }

func TestDecodeEventStream(t *testing.T) {
	lines := readLines(t, "event-stream.ndjson")
	var types []string
	var evs []Event
	for i, l := range lines {
		ev, err := DecodeEvent(l)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		types = append(types, ev.EventType())
		evs = append(evs, ev)
	}
	if got := strings.Join(types, " "); got != "challenge gameStart challengeCanceled challengeDeclined gameFinish gameStart" {
		t.Fatalf("types %s", got)
	}
	ch := evs[0].(*ChallengeEvent)
	wantCh := Challenge{
		ID: "Ch4llng1", URL: "https://lichess.org/Ch4llng1", Status: "created",
		Challenger: ChallengeUser{ID: "kasparov7", Name: "Kasparov7", Rating: 2210, Title: "FM", Online: true},
		DestUser:   &ChallengeUser{ID: "boarddplayer", Name: "BoarddPlayer", Rating: 1612, Online: true},
		Variant:    "standard", Speed: "rapid", Color: "random", FinalColor: "white", Direction: "in",
		TimeControl: TimeControl{Kind: "clock", Limit: 15 * time.Minute, Increment: 10 * time.Second, Show: "15+10"},
	}
	if !reflect.DeepEqual(ch.Challenge, wantCh) || !ch.BoardCompatible {
		t.Errorf("challenge:\n got %+v\nwant %+v", ch.Challenge, wantCh)
	}
	start := evs[1].(*GameStart).Game
	wantStart := GameInfo{
		FullID: "q7ZvsdUFx1y2", GameID: "q7ZvsdUF", FEN: board.StartFEN, Color: "white", Source: "friend", Status: StatusStarted,
		Variant: "standard", Speed: "rapid", Perf: "rapid", IsMyTurn: true, SecondsLeft: 900,
		Opponent: Opponent{ID: "kasparov7", Username: "Kasparov7", Rating: 2210}, BoardCompatible: true,
	}
	if !reflect.DeepEqual(start, wantStart) {
		t.Errorf("gameStart:\n got %+v\nwant %+v", start, wantStart)
	}
	if side, ok := start.Side(); !ok || side != board.White {
		t.Errorf("side %v %v", side, ok)
	}
	dec := evs[3].(*ChallengeDeclined)
	if dec.ReasonKey != "later" || dec.Challenge.TimeControl.DaysPerTurn != 3 || dec.Challenge.Direction != "out" {
		t.Errorf("challengeDeclined %+v", dec)
	}
	fin := evs[4].(*GameFinish).Game
	if fin.Status != StatusResign || fin.Winner != "white" || fin.LastMove != "f1b5" {
		t.Errorf("gameFinish %+v", fin)
	}
	ai := evs[5].(*GameStart).Game
	if ai.Opponent != (Opponent{Username: "A.I. level 3", AI: 3}) || ai.Color != "black" {
		t.Errorf("game against the AI: %+v", ai)
	}
}

func TestDecodeErrors(t *testing.T) {
	game := []struct{ line, want string }{
		{`{"type":"gameState","moves":"e2e4 e7e9","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}`, `move 2 "e7e9": not a UCI move`},
		{`{"type":"gameState","moves":"P@e4","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}`, `move 1 "P@e4"`},
		{`{"type":"gameState","wtime":1,"btime":1,"status":"started"}`, "no moves field"},
		{`{"type":"gameState","moves":"","wtime":1,"btime":1}`, "no status"},
		{`{"type":"gameState","moves":"","btime":1,"status":"started"}`, "no wtime or btime"},
		{`{"type":"gameState","moves":"","wtime":-5,"btime":1,"status":"started"}`, "clock value -5 ms out of range"},
		{`{"type":"gameState","moves":"","wtime":1,"btime":1,"status":"mate","winner":"red"}`, `winner "red"`},
		{`{"type":"gameFull","white":{},"black":{},"state":{}}`, "gameFull: no id"},
		{`{"type":"gameFull","id":"x","state":{}}`, "no white or black player"},
		{`{"type":"gameFull","id":"x","white":{},"black":{}}`, "gameFull x: no state"},
		{`{"type":"gameFull","id":"x","white":{},"black":{},"state":{"moves":"","wtime":1,"btime":1,"status":"started"},"clock":{"initial":-1,"increment":0}}`, "clock -1+0 ms out of range"},
		{`{"type":"opponentGone"}`, "no gone field"},
		{`{"moves":""}`, "line with no type"},
		{`{"type":"gameState"`, "game stream:"},
		{`[1,2]`, "game stream:"},
	}
	for _, c := range game {
		_, err := DecodeGameEvent([]byte(c.line))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeGameEvent(%s): %v, want %q", c.line, err, c.want)
		}
	}
	events := []struct{ line, want string }{
		{`{"type":"gameStart"}`, "gameStart event: no game"},
		{`{"type":"gameStart","game":{"fullId":"x"}}`, "no gameId"},
		{`{"type":"gameStart","game":{"gameId":"x","color":"green"}}`, `color "green"`},
		{`{"type":"challenge"}`, "no challenge"},
		{`{"type":"challenge","challenge":{"url":"u"}}`, "no challenge id"},
		{`{"type":"challenge","challenge":{"id":"c","timeControl":{"type":"clock","limit":-1}}}`, "out of range"},
		{`{"game":{}}`, "no type"},
		{`nonsense`, "event:"},
	}
	for _, c := range events {
		_, err := DecodeEvent([]byte(c.line))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeEvent(%s): %v, want %q", c.line, err, c.want)
		}
	}
	// Types added to lichess later are passed on.
	if ev, err := DecodeEvent([]byte(`{"type":"newThing","x":1}`)); err != nil || ev.EventType() != "newThing" {
		t.Errorf("unknown event: %v %v", ev, err)
	}
	if ev, err := DecodeGameEvent([]byte(`{"type":"newThing"}`)); err != nil || ev.GameEventType() != "newThing" {
		t.Errorf("unknown game event: %v %v", ev, err)
	}
}

func TestResult(t *testing.T) {
	cases := []struct {
		status Status
		winner string
		want   string
	}{
		{StatusStarted, "", "*"}, {StatusCreated, "", "*"}, {StatusMate, "white", "1-0"}, {StatusResign, "black", "0-1"},
		{StatusOutOfTime, "black", "0-1"}, {StatusTimeout, "", "1/2-1/2"}, {StatusStalemate, "", "1/2-1/2"}, {StatusDraw, "", "1/2-1/2"},
		{StatusAborted, "", "*"}, {StatusNoStart, "", "*"}, {StatusInsufficientMaterialClaim, "", "1/2-1/2"},
	}
	for _, c := range cases {
		s := GameState{Status: c.status, Winner: c.winner}
		if got := s.Result(); got != c.want {
			t.Errorf("%s/%q: %s, want %s", c.status, c.winner, got, c.want)
		}
	}
}

func TestLineReader(t *testing.T) {
	type step struct {
		line string
		keep bool
	}
	cases := []struct {
		name  string
		input string
		want  []step
		err   error
	}{
		{"keep-alives and lines", "\n{\"a\":1}\n\n\n{\"b\":2}\n", []step{{"", true}, {`{"a":1}`, false}, {"", true}, {"", true}, {`{"b":2}`, false}}, io.EOF},
		{"CRLF", "{\"a\":1}\r\n\r\n", []step{{`{"a":1}`, false}, {"", true}}, io.EOF},
		{"spaces only is a keep-alive", " \t\n{}\n", []step{{"", true}, {"{}", false}}, io.EOF},
		{"last line without newline", "{}\n{\"z\":0}", []step{{"{}", false}, {`{"z":0}`, false}}, io.EOF},
		{"empty", "", nil, io.EOF},
		{"a long line", "{\"x\":\"" + strings.Repeat("y", 100000) + "\"}\n", []step{{"{\"x\":\"" + strings.Repeat("y", 100000) + "\"}", false}}, io.EOF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewLineReader(strings.NewReader(c.input))
			for i, w := range c.want {
				line, keep, err := r.Next()
				if err != nil || string(line) != w.line || keep != w.keep {
					t.Fatalf("step %d: %q keep %v err %v; want %q keep %v", i, clip(string(line)), keep, err, clip(w.line), w.keep)
				}
			}
			if _, _, err := r.Next(); !errors.Is(err, c.err) {
				t.Fatalf("end: %v, want %v", err, c.err)
			}
		})
	}
	r := NewLineReader(strings.NewReader(strings.Repeat("x", MaxLineLength+10) + "\n"))
	if _, _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("an over-long line: %v", err)
	}
	r = NewLineReader(io.MultiReader(strings.NewReader("{\"a\""), errReader{io.ErrClosedPipe}))
	if _, _, err := r.Next(); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("a broken stream: %v", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// FuzzDecodeGameEvent checks that no line makes the decoder panic, and that
// a decoded state keeps what lichess sent: moves that are UCI, times that are
// not negative.
func FuzzDecodeGameEvent(f *testing.F) {
	for _, l := range readLines(f, "game-stream.ndjson") {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, err := DecodeGameEvent(line)
		if err != nil {
			if ev != nil {
				t.Fatal("an event with an error")
			}
			return
		}
		var st *GameState
		switch e := ev.(type) {
		case *GameState:
			st = e
		case *GameFull:
			st = &e.State
			if e.ID == "" || e.InitialFEN == "" {
				t.Fatalf("gameFull without id or initial FEN: %+v", e)
			}
		}
		if st != nil {
			for _, m := range st.Moves {
				if !validUCI(m) {
					t.Fatalf("move %q passed", m)
				}
			}
			if st.WhiteTime < 0 || st.BlackTime < 0 || st.Status == "" {
				t.Fatalf("state %+v passed", st)
			}
			if st.Result() != "*" && !st.Status.Finished() {
				t.Fatalf("a result for a game in progress: %+v", st)
			}
		}
	})
}

// FuzzDecodeEvent checks that no event line makes the decoder panic.
func FuzzDecodeEvent(f *testing.F) {
	for _, l := range readLines(f, "event-stream.ndjson") {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, err := DecodeEvent(line)
		if (ev == nil) == (err == nil) {
			t.Fatalf("event %v with error %v", ev, err)
		}
		switch e := ev.(type) {
		case *GameStart:
			if e.Game.GameID == "" {
				t.Fatal("gameStart without a game id")
			}
		case *ChallengeEvent:
			if e.Challenge.ID == "" || e.Challenge.TimeControl.Limit < 0 {
				t.Fatalf("challenge %+v", e.Challenge)
			}
		}
	})
}

// BenchmarkDecodeGameState decodes the gameState of a 60-move game, the
// line lichess sends after every move late in a long game.
func BenchmarkDecodeGameState(b *testing.B) {
	moves := strings.TrimSpace(strings.Repeat("g1f3 g8f6 f3g1 f6g8 ", 30))
	line := []byte(`{"type":"gameState","moves":"` + moves + `","wtime":600000,"btime":598000,"winc":5000,"binc":5000,"status":"started","bdraw":true}`)
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeGameEvent(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeGameFull decodes a gameFull, the first line of each
// connection.
func BenchmarkDecodeGameFull(b *testing.B) {
	line := readLines(b, "game-stream.ndjson")[0]
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeGameEvent(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeEvent decodes a gameStart of the event stream.
func BenchmarkDecodeEvent(b *testing.B) {
	line := readLines(b, "event-stream.ndjson")[1]
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeEvent(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadGameStream reads a whole game stream as the client does:
// lines, keep-alives and decoding.
func BenchmarkReadGameStream(b *testing.B) {
	data, err := os.ReadFile("testdata/game-stream.ndjson")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewLineReader(bytes.NewReader(data))
		for {
			line, keep, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if keep {
				continue
			}
			if _, err := DecodeGameEvent(line); err != nil {
				b.Fatal(err)
			}
		}
	}
}
