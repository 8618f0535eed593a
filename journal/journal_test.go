package journal

import (
	"bytes"
	"errors"
	"github.com/boardd/boardd/report"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/timing"
	"github.com/boardd/boardd/trace"
)

// legalsMate is a game with a touch-move irregularity and its lapse,
// captures, castling, check and mate, then (with reset) the board set up
// again, which begins a new game.
func legalsMate(t testing.TB, reset bool) []trace.Line {
	t.Helper()
	// The touch is held long enough to be one (a brush is a bump).
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 300 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := p.Touch("g1"); err != nil {
		t.Fatal(err)
	}
	p.Timing.Step = 100 * time.Millisecond
	if err := p.Move("e2e4", "e7e5", "g1f3", "d7d6", "f1c4", "c8g4", "b1c3", "g7g6", "e1g1", "b8c6", "f3e5", "g4d1", "c4f7", "e8e7", "c3d5"); err != nil {
		t.Fatal(err)
	}
	if reset {
		p.Reset()
	}
	return p.Lines
}

// session does with a journal what the daemon does, in virtual time: open
// it, replay or begin the game, journal every input and report.
type session struct {
	t     testing.TB
	j     *Journal
	p     *game.Game
	rec   *Recorder
	rp    *Replayed
	shift time.Duration // added to the times of the inputs fed
	first bool          // no input fed yet
	now   time.Duration
}

func start(t testing.TB, opts Options, wall func() (time.Time, bool)) *session {
	t.Helper()
	j, g, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, j: j, first: true}
	base := game.Options{Laws: "fide2023"}
	var h Header
	if g == nil {
		if h, err = j.Begin(0, NewHeader(j.Game(), base, time.Time{})); err != nil {
			t.Fatal(err)
		}
		if s.p, err = game.New(h.Options(base), nil); err != nil {
			t.Fatal(err)
		}
	} else {
		if s.rp, err = Replay(g, base); err != nil {
			t.Fatal(err)
		}
		s.p, h = s.rp.Game, g.Header
		s.now = s.rp.Resume
	}
	rn := game.NewRunner(s.p, &timing.Virtual{})
	p := s.p
	s.rec = NewRecorder(j, RecorderOptions{Game: func() *game.Game { return p }, Occupancy: func() board.Occupancy { return p.Snapshot().Occupancy }, Header: h, Wall: wall})
	rn.OnReport(s.rec.Report)
	if s.rp != nil {
		s.p.Advance(s.now)
		s.rec.Restored(s.rp, s.now)
	}
	return s
}

// feed journals and applies inputs, shifted so that the first comes no
// earlier than the session's time.
func (s *session) feed(lines ...trace.Line) {
	for _, l := range lines {
		if s.first {
			s.first = false
			s.shift = max(s.now-l.T, 0)
		}
		l.T += s.shift
		s.now = l.T
		// As the runner does: timers due fire before the input is taken.
		s.p.Advance(l.T)
		s.rec.Input(l)
		if err := s.p.Input(l); err != nil {
			s.t.Fatal(err)
		}
	}
}

// finish lets every timer fire, as the hands leave the board.
func (s *session) finish() {
	for d := s.p.Deadline(); d != timing.Never; d = s.p.Deadline() {
		s.p.Advance(d)
	}
}

func (s *session) close() {
	if err := s.j.Close(); err != nil {
		s.t.Fatal(err)
	}
}

func noWall() (time.Time, bool) { return time.Time{}, false }

// played plays lines in one session and returns the final PGN.
func played(t testing.TB, lines []trace.Line) string {
	s := start(t, Options{Dir: t.TempDir()}, noWall)
	defer s.close()
	s.feed(lines...)
	s.finish()
	return s.p.PGN()
}

func TestGameReplaysFromItsJournal(t *testing.T) {
	dir := t.TempDir()
	lines := legalsMate(t, false)
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(lines...)
	s.finish()
	want := s.p.PGN()
	s.close()
	if !strings.Contains(want, "Nd5# 1-0") || !strings.Contains(want, "lapse") {
		t.Fatalf("the game was not played as meant:\n%s", want)
	}
	g, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Warnings) > 0 {
		t.Errorf("warnings: %q", g.Warnings)
	}
	if got := len(g.Inputs()); got != len(lines) {
		t.Errorf("%d inputs journalled, want %d", got, len(lines))
	}
	for i, r := range g.Records {
		if r.Seq != uint64(i+1) {
			t.Fatalf("record %d has seq %d", i, r.Seq)
		}
	}
	rp, err := Replay(g, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rp.Diverged != 0 || len(rp.Lost) != 0 || rp.NewGame {
		t.Errorf("replay: diverged %d, lost %d, new game %v", rp.Diverged, len(rp.Lost), rp.NewGame)
	}
	if got := rp.Game.PGN(); got != want {
		t.Errorf("replayed PGN:\n%s\nwant:\n%s", got, want)
	}
	cur, err := os.ReadFile(filepath.Join(dir, CurrentPGN))
	if err != nil || string(cur) != want {
		t.Errorf("current.pgn = %q, %v; want the game", cur, err)
	}
	fen, _ := os.ReadFile(filepath.Join(dir, CurrentFEN))
	if !strings.HasPrefix(string(fen), "r2q1bnr/ppp1kB1p/2np2p1/3NN3/4P3/8/PPPP1PPP/R1Bb1RK1 b") {
		t.Errorf("current.fen = %q", fen)
	}
}

// TestCrashAfterEveryRecord cuts the journal of a whole game after each of
// its records (a process killed there), restarts from it, feeds the inputs
// the journal does not have, and checks the game comes out the same. The
// same for a second game, begun by resetting the board after the first, and
// for one begun by the arbiter in the middle of another.
func TestCrashAfterEveryRecord(t *testing.T) {
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	p.T = legalsMate(t, true)[len(legalsMate(t, true))-1].T + 2*time.Second
	if err := p.Move("d2d4", "d7d5", "c1f4", "c7c5"); err != nil {
		t.Fatal(err)
	}
	second := append(legalsMate(t, true), p.Lines...)
	// The arbiter calls a new game after 1. e4 e5 2. Nf3 d6; the players
	// set the board up and play 1. e4 c5.
	p = journaltest.NewPlayer(0, journaltest.Timing{Step: 100 * time.Millisecond, Pause: 1200 * time.Millisecond})
	if err := p.Move("e2e4", "e7e5", "g1f3", "d7d6"); err != nil {
		t.Fatal(err)
	}
	p.Lines = append(p.Lines, trace.Line{T: p.T, Kind: trace.Arbiter, Action: "new-game", Side: trace.SideArbiter})
	p.T += time.Second
	p.Reset()
	if err := p.Move("e2e4", "c7c5"); err != nil {
		t.Fatal(err)
	}
	abandoned := p.Lines
	cases := []struct {
		name  string
		lines []trace.Line
		want  []string // in the PGN of the game in progress at the end
		games int      // games archived
	}{
		{"one game", legalsMate(t, false), []string{"Nd5# 1-0"}, 0},
		{"after a reset", second, []string{"1. d4 d5 2. Bf4 c5 *"}, 1},
		{"after a new game by the arbiter", abandoned, []string{"1. e4 c5 *"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { crashEverywhere(t, c.lines, c.want, c.games) })
	}
}

func crashEverywhere(t *testing.T, lines []trace.Line, wantIn []string, games int) {
	full := t.TempDir()
	s := start(t, Options{Dir: full}, noWall)
	s.feed(lines...)
	s.finish()
	want := s.p.PGN()
	s.close()
	for _, w := range wantIn {
		if !strings.Contains(want, w) {
			t.Fatalf("the game was not played as meant: no %q in\n%s", w, want)
		}
	}
	archived, err := List(full)
	if err != nil || len(archived) != games {
		t.Fatalf("archive %+v, %v; want %d games", archived, err, games)
	}
	inputsBefore := 0
	for _, a := range archived {
		g, err := ReadFile(a.Journal)
		if err != nil {
			t.Fatal(err)
		}
		inputsBefore += len(g.Inputs())
	}
	data, err := os.ReadFile(filepath.Join(full, CurrentFile))
	if err != nil {
		t.Fatal(err)
	}
	for cut := range len(data) + 1 {
		if cut > 0 && data[cut-1] != '\n' {
			continue
		}
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(full)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, CurrentFile), data[:cut], 0o640); err != nil {
			t.Fatal(err)
		}
		done := inputsBefore
		if g, err := Read(dir); err != nil {
			t.Fatal(err)
		} else if g != nil {
			done += len(g.Inputs())
		}
		s := start(t, Options{Dir: dir}, noWall)
		if s.rp != nil && s.rp.Diverged != 0 {
			t.Errorf("cut at byte %d: %d reports diverged", cut, s.rp.Diverged)
		}
		s.feed(lines[done:]...)
		s.finish()
		if got := s.p.PGN(); got != want {
			t.Fatalf("cut at byte %d (%d inputs journalled): PGN\n%s\nwant\n%s", cut, done, got, want)
		}
		s.close()
		g, err := Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(g.Records); i++ {
			if g.Records[i].Seq != g.Records[i-1].Seq+1 {
				t.Fatalf("cut at byte %d: seq %d follows %d", cut, g.Records[i].Seq, g.Records[i-1].Seq)
			}
		}
		if again, _ := List(dir); len(again) != games {
			t.Fatalf("cut at byte %d: %d games archived, want %d", cut, len(again), games)
		}
	}
}

// journalOf plays lines into a new journal (letting the timers fire after
// them when finish is set) and returns its bytes.
func journalOf(t *testing.T, lines []trace.Line, finish bool) []byte {
	dir := t.TempDir()
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(lines...)
	if finish {
		s.finish()
	}
	s.close()
	data, err := os.ReadFile(filepath.Join(dir, CurrentFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTornLastRecordAtEveryOffset truncates a journal at every byte offset
// of its last record (and fills the torn part with zeros, as a power cut on
// some file systems leaves it): the record is dropped with a warning,
// everything before it is kept, and the journal goes on cleanly.
func TestTornLastRecordAtEveryOffset(t *testing.T) {
	lines := legalsMate(t, false)
	data := journalOf(t, lines[:8], true)
	// The last record is an input: a lift, with no report after it yet.
	data = AppendInput(data, uint64(bytes.Count(data, []byte{'\n'})+1), lines[8])
	lastStart := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
	whole, err := parse("whole", data)
	if err != nil {
		t.Fatal(err)
	}
	n := len(whole.Records)
	if whole.Records[n-1].Kind != KindInput {
		t.Fatalf("the last record is a %s; the test wants an input there", whole.Records[n-1].Kind)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, CurrentFile)
	for cut := lastStart; cut <= len(data); cut++ {
		for _, zeros := range []bool{false, true} {
			if zeros && cut == len(data) {
				continue
			}
			content := append([]byte(nil), data[:cut]...)
			if zeros {
				content = append(content, make([]byte, len(data)-cut)...)
			}
			if err := os.WriteFile(path, content, 0o640); err != nil {
				t.Fatal(err)
			}
			j, g, err := Open(Options{Dir: dir})
			if err != nil {
				t.Fatalf("cut %d zeros %v: %v", cut, zeros, err)
			}
			wantRecords, wantTorn := n-1, cut > lastStart || zeros
			wantGood := int64(lastStart)
			if cut >= len(data)-1 {
				// Whole, or whole but for its newline (the checksum
				// says so): kept, the newline put back.
				wantRecords, wantTorn, wantGood = n, false, int64(len(data))
			}
			if len(g.Records) != wantRecords {
				t.Errorf("cut %d zeros %v: %d records, want %d", cut, zeros, len(g.Records), wantRecords)
			}
			wantWarning := wantTorn || cut == len(data)-1
			if g.Torn() != wantTorn || (len(g.Warnings) > 0) != wantWarning {
				t.Errorf("cut %d zeros %v: torn %v, warnings %q; want torn %v (last record %d..%d: %q)", cut, zeros, g.Torn(), g.Warnings, wantTorn, lastStart, len(data), data[lastStart:])
			}
			if info, _ := os.Stat(path); info.Size() != g.Good || g.Good != wantGood {
				t.Errorf("cut %d zeros %v: file is %d bytes after open, good %d, want %d", cut, zeros, info.Size(), g.Good, wantGood)
			}
			if got, _ := os.ReadFile(path); wantRecords == n && !bytes.Equal(got, data) {
				t.Errorf("cut %d zeros %v: the file after open is\n%q, want\n%q", cut, zeros, got, data)
			}
			if _, err := Replay(g, game.Options{}); err != nil {
				t.Errorf("cut %d zeros %v: replay: %v", cut, zeros, err)
			}
			// The journal goes on after the cut with the next number.
			if err := j.AppendInput(trace.Line{T: g.LastT + time.Second, Kind: trace.Lift, Square: 12}); err != nil {
				t.Fatal(err)
			}
			j.Close()
			again, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(again.Warnings) > 0 || len(again.Records) != wantRecords+1 || again.LastSeq != g.LastSeq+1 {
				t.Errorf("cut %d zeros %v: after an append: %d records, last seq %d, warnings %q; want %d, %d, none",
					cut, zeros, len(again.Records), again.LastSeq, again.Warnings, wantRecords+1, g.LastSeq+1)
			}
		}
	}
}

func TestGarbledLineInTheMiddleIsSkipped(t *testing.T) {
	data := journalOf(t, legalsMate(t, false)[:6], true)
	lines := bytes.SplitAfter(data, []byte{'\n'})
	var bad []byte
	for i, l := range lines {
		bad = append(bad, l...)
		if i == 2 {
			bad = append(bad, "{\"t\":12,\"seq\":\x00\x00garbage\n"...)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CurrentFile), bad, 0o640)
	j, g, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	whole, _ := parse("whole", data)
	if len(g.Records) != len(whole.Records) || g.Torn() {
		t.Errorf("%d records (torn %v), want all %d", len(g.Records), g.Torn(), len(whole.Records))
	}
	if len(g.Warnings) != 1 || !strings.Contains(g.Warnings[0], "line 4 ") || !strings.Contains(g.Warnings[0], "skipped") {
		t.Errorf("warnings %q, want one about line 4", g.Warnings)
	}
}

func TestRecordsWithoutHeaderAreMovedAside(t *testing.T) {
	data := journalOf(t, legalsMate(t, false)[:6], true)
	_, rest, _ := bytes.Cut(data, []byte{'\n'})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CurrentFile), rest, 0o640)
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "no header") {
		t.Errorf("Read: %v, want an error about the header", err)
	}
	j, g, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g != nil {
		t.Errorf("a game was made of records with no header")
	}
	aside, _ := filepath.Glob(filepath.Join(dir, CurrentFile+".unreadable-*"))
	if len(aside) != 1 {
		t.Errorf("moved aside: %q", aside)
	}
}

func TestTornHeaderIsNoGame(t *testing.T) {
	data := journalOf(t, nil, false)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CurrentFile), data[:len(data)/2], 0o640)
	j, g, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g != nil || j.Game() != 1 || j.Seq() != 0 {
		t.Errorf("game %v, number %d, seq %d: want no game, 1, 0", g, j.Game(), j.Seq())
	}
}

func TestOneDaemonPerDirectory(t *testing.T) {
	dir := t.TempDir()
	j, _, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(Options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second Open: %v, want in use", err)
	}
	j.Close()
	j2, _, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	j2.Close()
}

func TestRotationArchivesEachGame(t *testing.T) {
	dir := t.TempDir()
	lines := legalsMate(t, true)
	wantPGN := played(t, legalsMate(t, false))
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(lines...)
	s.finish()
	lastSeq := s.j.Seq()
	s.close()

	games, err := List(dir)
	if err != nil || len(games) != 1 || games[0].Game != 1 || games[0].PGN == "" || games[0].Journal == "" {
		t.Fatalf("archive %+v, %v; want game 1 whole", games, err)
	}
	pgn, _ := os.ReadFile(games[0].PGN)
	if string(pgn) != wantPGN {
		t.Errorf("archived PGN:\n%s\nwant:\n%s", pgn, wantPGN)
	}
	if tags, _ := games[0].Tags(); tags["Result"] != "1-0" || tags["LawSet"] != "fide2023" {
		t.Errorf("archived tags %v", tags)
	}
	g, err := Read(dir)
	if err != nil || g == nil {
		t.Fatalf("current journal: %v, %v", g, err)
	}
	if g.Header.Game != 2 || g.Records[0].Seq != lastSeq || len(g.Records) != 1 {
		t.Errorf("new journal: game %d, first seq %d (last written %d), %d records", g.Header.Game, g.Records[0].Seq, lastSeq, len(g.Records))
	}
	cur, _ := os.ReadFile(filepath.Join(dir, CurrentFEN))
	if !strings.HasPrefix(string(cur), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq") {
		t.Errorf("current.fen after the reset = %q", cur)
	}

	// Every record, across both files, in order.
	j, _, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for _, from := range []uint64{0, 1, 17, lastSeq - 1, lastSeq, lastSeq + 1} {
		want := max(from, 1)
		err := j.ReadFrom(from, func(r Record) error {
			if r.Seq != want {
				t.Fatalf("ReadFrom(%d): seq %d, want %d", from, r.Seq, want)
			}
			want++
			return nil
		})
		if err != nil || want != lastSeq+1 {
			t.Errorf("ReadFrom(%d): %v, read up to %d, want up to %d", from, err, want-1, lastSeq)
		}
	}
	stop := errors.New("enough")
	if err := j.ReadFrom(1, func(Record) error { return stop }); err != stop {
		t.Errorf("ReadFrom did not stop at fn's error: %v", err)
	}
}

func TestArchiveStaysUnderItsCap(t *testing.T) {
	dir := t.TempDir()
	lines := legalsMate(t, true)
	for game := 1; game <= 4; game++ {
		s := start(t, Options{Dir: dir}, noWall)
		s.feed(lines...)
		s.finish()
		s.close()
	}
	games, err := List(dir)
	if err != nil || len(games) != 4 {
		t.Fatalf("archive %+v, %v", games, err)
	}
	size := func(path string) int64 {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	// A cap that holds the newest journal and the three newest PGNs: the
	// oldest journals go first, then the oldest PGNs.
	capBytes := size(games[3].Journal) + size(games[1].PGN) + size(games[2].PGN) + size(games[3].PGN)
	j, _, err := Open(Options{Dir: dir, ArchiveCap: capBytes})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.trim(); err != nil {
		t.Fatal(err)
	}
	games, _ = List(dir)
	var got []string
	var total int64
	for _, g := range games {
		got = append(got, filepath.Base(g.PGN)+"|"+filepath.Base(g.Journal))
		total += g.Size
	}
	want := "game-000002.pgn|. game-000003.pgn|. game-000004.pgn|game-000004.jsonl"
	if strings.Join(got, " ") != want || total > capBytes {
		t.Errorf("archive %q (%d bytes), want %q (cap %d)", got, total, want, capBytes)
	}
	var te *TrimmedError
	if err := j.ReadFrom(1, func(Record) error { t.Fatal("records read past a trim"); return nil }); !errors.As(err, &te) || te.Oldest <= 1 {
		t.Errorf("ReadFrom(1) after a trim: %v, want a TrimmedError", err)
	}
	g4, _ := ReadFile(games[2].Journal)
	n := 0
	if err := j.ReadFrom(g4.Records[0].Seq, func(Record) error { n++; return nil }); err != nil || n == 0 {
		t.Errorf("ReadFrom(the oldest kept): %v, %d records", err, n)
	}
}

// TestRotationOwedAtOpen is a power cut after the reset was journalled and
// before the journal rotated: the rotation is made when boardd starts.
func TestRotationOwedAtOpen(t *testing.T) {
	full := t.TempDir()
	s := start(t, Options{Dir: full}, noWall)
	s.feed(legalsMate(t, true)...)
	s.finish()
	s.close()
	games, _ := List(full)
	archived, _ := os.ReadFile(games[0].Journal)
	wantPGN, _ := os.ReadFile(games[0].PGN)

	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CurrentFile), archived, 0o640)
	s = start(t, Options{Dir: dir}, noWall)
	if !s.rp.NewGame {
		t.Fatal("the replay did not see the new game")
	}
	s.close()
	games, _ = List(dir)
	if len(games) != 1 {
		t.Fatalf("archive %+v", games)
	}
	pgn, _ := os.ReadFile(games[0].PGN)
	if !bytes.Equal(pgn, wantPGN) {
		t.Errorf("PGN archived at open:\n%s\nwant\n%s", pgn, wantPGN)
	}
	g, _ := Read(dir)
	if g == nil || g.Header.Game != 2 {
		t.Errorf("no game 2 begun: %+v", g)
	}
}

// TestCrashBetweenArchiveAndBegin: the game was archived but the next
// journal never begun. Open finds no game; numbers go on.
func TestCrashBetweenArchiveAndBegin(t *testing.T) {
	full := t.TempDir()
	s := start(t, Options{Dir: full}, noWall)
	s.feed(legalsMate(t, true)...)
	s.finish()
	s.close()
	os.Remove(filepath.Join(full, CurrentFile))
	os.WriteFile(filepath.Join(full, CurrentFile+".new"), []byte(`{"t":1,"seq":`), 0o640)
	games, _ := List(full)
	g1, _ := ReadFile(games[0].Journal)
	j, g, err := Open(Options{Dir: full})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if g != nil || j.Game() != 2 || j.Seq() != g1.LastSeq {
		t.Errorf("game %v, next number %d, seq %d; want none, 2, %d", g, j.Game(), j.Seq(), g1.LastSeq)
	}
	if _, err := os.Stat(filepath.Join(full, CurrentFile+".new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the half-made journal was left: %v", err)
	}
	h, err := j.Begin(time.Second, NewHeader(j.Game(), game.Options{Laws: "nycc"}, time.Time{}))
	if err != nil || h.Game != 2 || j.Seq() != g1.LastSeq+1 {
		t.Errorf("Begin: %+v, %v, seq %d", h, err, j.Seq())
	}
}

func TestDateLearntWhenTheClockIsSynchronised(t *testing.T) {
	dir := t.TempDir()
	synced := false
	noon := time.Date(2025, 6, 1, 0, 0, 30, 0, time.UTC)
	wall := func() (time.Time, bool) { return noon, synced }
	lines := legalsMate(t, false)
	s := start(t, Options{Dir: dir}, wall)
	s.feed(lines[:4]...) // the touch and e4
	s.finish()
	if pgn := s.p.PGN(); !strings.Contains(pgn, `[Date "????.??.??"]`) {
		t.Errorf("dated before the clock was synchronised:\n%s", pgn)
	}
	synced = true
	s.feed(lines[4:]...)
	s.finish()
	// e4 was at 2.95 s of game time, the clock read 00:00:30 on 1 June:
	// the game began on 1 June.
	if pgn := s.p.PGN(); !strings.Contains(pgn, `[Date "2025.06.01"]`) {
		t.Errorf("not dated once the clock was synchronised:\n%s", pgn)
	}
	s.close()
	g, _ := Read(dir)
	if g.Header.Tags["Date"] != "2025.06.01" {
		t.Errorf("journal date %q", g.Header.Tags["Date"])
	}
	tags := 0
	for _, r := range g.Records {
		if r.Kind == KindTag {
			tags++
		}
	}
	if tags != 1 {
		t.Errorf("%d tag records, want 1", tags)
	}
}

func TestDivergenceIsCounted(t *testing.T) {
	data := journalOf(t, legalsMate(t, false), true)
	// Written so by another boardd: the line is whole, its checksum good.
	var bad []byte
	for _, line := range bytes.SplitAfter(data, []byte{'\n'}) {
		if bytes.Contains(line, []byte(`"san":"Nf3"`)) {
			text, _ := verify(line[:len(line)-1])
			text = bytes.Replace(text, []byte(`"san":"Nf3"`), []byte(`"san":"Nh3"`), 1)
			line = seal(append(text, '\n'), 0)
		}
		bad = append(bad, line...)
	}
	g, err := parse("bad", bad)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := Replay(g, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rp.Diverged != 1 {
		t.Errorf("diverged %d, want 1", rp.Diverged)
	}
}

func TestLostReportsAreJournalledOnRestart(t *testing.T) {
	data := journalOf(t, legalsMate(t, false), true)
	whole, err := parse("whole", data)
	if err != nil {
		t.Fatal(err)
	}
	// Cut after an input whose report came at once (the touch of a lift):
	// the process died after journalling the input, before its reports.
	cut := -1
	for i := 0; i+1 < len(whole.Records); i++ {
		in, next := whole.Records[i], whole.Records[i+1]
		if in.Kind == KindInput && next.Kind == KindReport && next.T == in.T && next.Report.Type == report.Touch {
			cut = i + 1
			break
		}
	}
	if cut < 0 {
		t.Fatal("no input followed at once by its touch report")
	}
	var kept []byte
	for _, r := range whole.Records[:cut] {
		kept = append(append(kept, r.Raw...), '\n')
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, CurrentFile), kept, 0o640)
	s := start(t, Options{Dir: dir}, noWall)
	lost := s.rp.Lost
	s.close()
	if len(lost) == 0 || lost[0].Type != report.Touch {
		t.Fatalf("lost reports %+v, want the touch", lost)
	}
	g, _ := Read(dir)
	for i, r := range g.Records {
		if i < cut {
			continue
		}
		if r.Kind != KindReport || !bytes.Equal(r.Raw[bytes.IndexByte(r.Raw, ','):], whole.Records[i].Raw[bytes.IndexByte(whole.Records[i].Raw, ','):]) {
			t.Errorf("record %d after the restart: %s, want %s", i, r.Raw, whole.Records[i].Raw)
		}
	}
	if len(g.Records) != cut+len(lost) {
		t.Errorf("%d records after the restart, want %d", len(g.Records), cut+len(lost))
	}
}

// A game against an engine: its header says which side is played from off
// the board, and the players' names set during the game are journalled; the
// next game's journal carries both on, and a replay of either has them.
func TestRemoteSidesAndTagsCarryOver(t *testing.T) {
	dir := t.TempDir()
	j, g, err := Open(Options{Dir: dir})
	if err != nil || g != nil {
		t.Fatalf("open: %v, %v", g, err)
	}
	base := game.Options{Laws: "fide2023"}
	opts := base
	opts.Remote = [2]bool{false, true}
	h, err := j.Begin(0, NewHeader(j.Game(), opts, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	if h.Remote != trace.SideBlack {
		t.Fatalf("header remote %q", h.Remote)
	}
	p, err := game.New(h.Options(base), nil)
	if err != nil {
		t.Fatal(err)
	}
	rn := game.NewRunner(p, &timing.Virtual{})
	rec := NewRecorder(j, RecorderOptions{Game: func() *game.Game { return p }, Header: h})
	rn.OnReport(rec.Report)
	if err := rec.SetTag(time.Second, "Black", "Stockfish 15.1, Elo 1500"); err != nil {
		t.Fatal(err)
	}
	if pgn := p.PGN(); !strings.Contains(pgn, `[Black "Stockfish 15.1, Elo 1500"]`) {
		t.Errorf("live PGN without the engine's name:\n%s", pgn)
	}
	cur, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := Replay(cur, base)
	if err != nil {
		t.Fatal(err)
	}
	if s := rp.Game.Snapshot(); !s.Remote[board.Black] || s.Remote[board.White] {
		t.Errorf("replayed remote sides %v", s.Remote)
	}
	if pgn := rp.Game.PGN(); !strings.Contains(pgn, `[Black "Stockfish 15.1, Elo 1500"]`) {
		t.Errorf("replayed PGN without the engine's name:\n%s", pgn)
	}
	// The game ends, a new one begins: its journal keeps both.
	next := resignAndBeginNext(t, dir, j, rec, p)
	if next.Header.Game != 2 || next.Header.Remote != trace.SideBlack || next.Header.Tags["Black"] != "Stockfish 15.1, Elo 1500" {
		t.Errorf("next game's header %+v", next.Header)
	}
	games, err := List(dir)
	if err != nil || len(games) != 1 {
		t.Fatalf("archive %v, %v", games, err)
	}
	if tags, _ := games[0].Tags(); tags["Black"] != "Stockfish 15.1, Elo 1500" || tags["Termination"] != "normal" || tags["Result"] != "0-1" {
		t.Errorf("archived tags %v", tags)
	}
}

// An engine's evaluation noted at its move is journalled: the replay's PGN
// has it where the live game's has it.
func TestCommentsReplay(t *testing.T) {
	dir := t.TempDir()
	s := start(t, Options{Dir: dir}, noWall)
	s.feed(legalsMate(t, false)[:8]...) // the touch, e4, e5, Nf3
	s.finish()
	if err := s.rec.Comment(s.now+time.Second, 1, "[%eval 0.20,12] Stockfish 15.1 +0.20/12"); err != nil {
		t.Fatal(err)
	}
	if err := s.rec.Comment(s.now+time.Second, 9, "no such move"); err == nil {
		t.Error("a comment at a move not played was taken")
	}
	live := s.p.PGN()
	if !strings.Contains(live, "e5 {[%eval 0.20,12]") {
		t.Fatalf("live PGN:\n%s", live)
	}
	s.close()
	g, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := Replay(g, game.Options{Laws: "fide2023"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rp.Game.PGN(); got != live {
		t.Errorf("replayed PGN:\n%s\nwant:\n%s", got, live)
	}
}

// Players named from the console (arbiter lines naming White and Black)
// are journalled as inputs: a replay (a restart) has them in its PGN, a
// name the game refuses (the engine's side) is neither set nor carried on,
// and the next game's header keeps the names given.
func TestPlayersNamedCarryOver(t *testing.T) {
	const engine = "Stockfish 15.1, Elo 1500"
	dir := t.TempDir()
	j, g, err := Open(Options{Dir: dir})
	if err != nil || g != nil {
		t.Fatalf("open: %v, %v", g, err)
	}
	base := game.Options{Laws: "fide2023"}
	opts := base
	opts.Remote = [2]bool{false, true}
	opts.Tags = map[string]string{"Black": engine}
	h, err := j.Begin(0, NewHeader(j.Game(), opts, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	p, err := game.New(h.Options(base), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(j, RecorderOptions{Game: func() *game.Game { return p }, Header: h})
	for _, c := range []struct {
		action, value string
		refused       bool
	}{
		{game.ActionNameWhite, "Anna", false},
		{game.ActionNameBlack, "Ben", true}, // the engine's side
		{game.ActionNameWhite, "Anna Rudolf", false},
	} {
		l := trace.Line{T: time.Second, Kind: trace.Arbiter, Action: c.action, Value: c.value, Side: trace.SideArbiter}
		rec.Input(l)
		if err := p.Action(l.T, l.Action, l.Value); (err != nil) != c.refused {
			t.Errorf("%s %q: %v, refused: want %v", c.action, c.value, err, c.refused)
		}
	}
	want := []string{`[White "Anna Rudolf"]`, `[Black "` + engine + `"]`}
	live := p.PGN()
	for _, tag := range want {
		if !strings.Contains(live, tag) {
			t.Errorf("live PGN without %s:\n%s", tag, live)
		}
	}
	cur, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	rp, err := Replay(cur, base)
	if err != nil {
		t.Fatal(err)
	}
	if got := rp.Game.PGN(); got != live {
		t.Errorf("replayed PGN:\n%s\nwant:\n%s", got, live)
	}
	next := resignAndBeginNext(t, dir, j, rec, p)
	if next.Header.Tags["White"] != "Anna Rudolf" || next.Header.Tags["Black"] != engine {
		t.Errorf("next game's header tags %v", next.Header.Tags)
	}
}

// resignAndBeginNext ends the game White resigning at 2 s, begins a new one
// at 3 s, closes the journal and reads the new game from dir.
func resignAndBeginNext(t *testing.T, dir string, j *Journal, rec *Recorder, p *game.Game) *Game {
	t.Helper()
	for _, l := range []trace.Line{
		{T: 2 * time.Second, Kind: trace.Arbiter, Action: game.ActionResign, Value: "white", Side: trace.SideArbiter},
		{T: 3 * time.Second, Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter},
	} {
		rec.Input(l)
		if err := p.Input(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	next, err := Read(dir)
	if err != nil || next == nil {
		t.Fatalf("next game: %v, %v", next, err)
	}
	return next
}
