package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/clock"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/pgn"
	"github.com/boardd/boardd/placement"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
	"github.com/boardd/boardd/voice"
)

// LocalOptions configure a Local board.
type LocalOptions struct {
	// ID names the board in URLs (see ValidBoardID).
	ID string
	// Simulated is true when the board has no sensors: the page is the board.
	Simulated bool
	// Tournament is shown on the page (every penalty exacted).
	Tournament bool
	// Poll is how often a watched board is checked for changes that neither
	// an input nor a report announced (a debounced placement, a blink of
	// state); 250 ms if zero, never if negative.
	Poll time.Duration
	// Timeout bounds each call into the runner; 5 s if zero.
	Timeout time.Duration
	// MaxNotes is how many notes are kept; 500 if zero.
	MaxNotes int
	// Opponent is the engine playing a side from off the board, if any:
	// its state goes in the board's, and it takes the commands of POST
	// .../opponent.
	Opponent OpponentSource
	// Layer, if set, returns a frame laid over the game's LEDs (led.Overlay),
	// such as an app's through the ChessLink emulation; the page shows the
	// LEDs so, within a poll of a change. It is called from any goroutine.
	Layer func() led.Frame
	// Notices, if set, returns what the page should tell anyone watching
	// about the board beyond its game (an engine's game resumed without
	// its engine). It is called from any goroutine.
	Notices func() []string
	// Faults, if set, names faults beside the game that the game does not
	// know ("voice": the speech program fails); it is called from any
	// goroutine, and the page sees a change within a poll.
	Faults func() []string
	// Pair, if set, returns the board's pairing with another board (nil
	// for none); it is called from any goroutine, and the page sees a
	// change within a poll.
	Pair func() *Pair
	// Voice is how the board's lines are worded for the page's speech
	// (the say events); the zero value is plain English.
	Voice voice.Words
}

// Local is a Board driven by a game.Runner in this process. Every query
// runs on the runner's goroutine (Runner.Do); reports and inputs reach the
// watchers through the runner's hooks.
type Local struct {
	r    *game.Runner
	opts LocalOptions
	ctx  context.Context
	stop context.CancelFunc
	done chan struct{}

	unwatch func() // stops following the opponent

	mu       sync.Mutex
	watchers map[int]func(Change)
	nextID   int
	notes    []Note
	ply      int // moves recorded, counted from reports and set from the game at each change (onChange) and snapshot
	clock    *Clock
	// hands follow which man stands where while the board is out of step
	// with the game, from the lifts and placements of a simulated board
	// (placement.Hands); a raw scan frame makes them unknown until the
	// board and the game agree again.
	hands placement.Hands
	// positions are the positions after each ply of the move list, kept
	// from one state to the next; touched on the runner's goroutine only.
	positions positions
}

// IsNote reports whether a report is kept as a note in the move list: an
// irregularity, a ruling, a mismatch, the board synced again, a result, and
// a clock report with a law (the clocks stopped for a claim, fide2023:9.5.1).
// The hall keeps the same notes of its boards.
func IsNote(r *report.Report) bool {
	switch r.Type {
	case report.Irregularity, report.Ruling, report.Mismatch, report.Synced, report.Result:
		return true
	case report.Clock:
		return r.Law != ""
	}
	return false
}

// NewLocal returns a board over runner r, which must be running (or about to
// run). It subscribes to the runner's reports and inputs; Close stops its
// watching.
func NewLocal(r *game.Runner, opts LocalOptions) (*Local, error) {
	if r == nil {
		return nil, fmt.Errorf("console: local board: no runner")
	}
	if err := ValidBoardID(opts.ID); err != nil {
		return nil, err
	}
	if opts.Poll == 0 {
		opts.Poll = 250 * time.Millisecond
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Second
	}
	if opts.MaxNotes <= 0 {
		opts.MaxNotes = 500
	}
	ctx, stop := context.WithCancel(context.Background())
	l := &Local{r: r, opts: opts, ctx: ctx, stop: stop, done: make(chan struct{}), watchers: map[int]func(Change){}}
	r.OnReport(l.onReport)
	r.OnInput(l.onInput)
	r.OnChange(l.onChange)
	ann := voice.NewAnnouncer(opts.Voice, l.said)
	r.OnReport(ann.Report)
	r.OnChange(ann.Snapshot)
	if opts.Opponent != nil {
		l.unwatch = opts.Opponent.Watch(func() { l.notify(Change{}) })
	}
	go l.poll()
	return l, nil
}

// ID returns the board's id.
func (l *Local) ID() string { return l.opts.ID }

// Simulated reports whether the page is the board.
func (l *Local) Simulated() bool { return l.opts.Simulated }

// Close stops watching the runner. It does not stop the runner.
func (l *Local) Close() error {
	l.stop()
	<-l.done
	if l.unwatch != nil {
		l.unwatch()
	}
	return nil
}

// Command gives the board's opponent a command (see OpponentSource);
// errors.ErrUnsupported when it has none.
func (l *Local) Command(ctx context.Context, command, value string) error {
	if l.opts.Opponent == nil {
		return fmt.Errorf("console: board %s: no engine plays here: %w", l.opts.ID, errors.ErrUnsupported)
	}
	ctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	unhook := context.AfterFunc(l.ctx, cancel)
	defer unhook()
	return l.opts.Opponent.Command(ctx, command, value)
}

// Watch registers fn; see Board.
func (l *Local) Watch(fn func(Change)) (stop func()) {
	l.mu.Lock()
	id := l.nextID
	l.nextID++
	l.watchers[id] = fn
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		delete(l.watchers, id)
		l.mu.Unlock()
	}
}

func (l *Local) notify(c Change) {
	l.mu.Lock()
	fns := make([]func(Change), 0, len(l.watchers))
	for _, fn := range l.watchers {
		fns = append(fns, fn)
	}
	l.mu.Unlock()
	for _, fn := range fns {
		fn(c)
	}
}

// onReport runs on the runner's goroutine.
func (l *Local) onReport(rep report.Report) {
	js := rep.AppendJSON(nil)
	l.mu.Lock()
	switch rep.Type {
	case report.Move:
		l.ply++
		if rep.WhiteClock != "" {
			l.clock = &Clock{White: rep.WhiteClock, Black: rep.BlackClock}
		}
	case report.Clock:
		if rep.WhiteClock != "" {
			l.clock = &Clock{White: rep.WhiteClock, Black: rep.BlackClock}
		}
	}
	if rep.Type == report.Ruling && rep.Option == report.OptAnnul {
		// The game begins anew: the annulment is its first note.
		l.notes, l.ply = l.notes[:0], 0
	}
	if IsNote(&rep) {
		l.notes = append(l.notes, Note{Ply: l.ply, Report: js})
		if over := len(l.notes) - l.opts.MaxNotes; over > 0 {
			l.notes = append(l.notes[:0], l.notes[over:]...)
		}
	}
	l.mu.Unlock()
	l.notify(Change{Report: js})
}

// onChange runs on the runner's goroutine after every change of the game:
// when moves were taken back (a take-back, a move retracted by a ruling),
// the notes after a move no longer played are kept after the last move
// that stands, where they happened in the game as it now goes, and the
// count of moves follows the game, so that a note never slides after a
// later move that takes a taken-back move's number.
func (l *Local) onChange(snap *game.Snapshot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if snap.Moves < l.ply {
		for i := range l.notes {
			l.notes[i].Ply = min(l.notes[i].Ply, snap.Moves)
		}
	}
	l.ply = snap.Moves
}

// said hands a line of the board's voice to the watchers (the page speaks
// it); it runs on the runner's goroutine.
func (l *Local) said(line string) {
	lang := l.opts.Voice.Lang
	if lang == "" {
		lang = voice.English
	}
	js, err := json.Marshal(struct {
		Text string `json:"text"`
		Lang string `json:"lang"`
	}{line, string(lang)})
	if err != nil {
		return // a string and a language always marshal
	}
	l.notify(Change{Say: js})
}

// onInput runs on the runner's goroutine, before the input is applied.
func (l *Local) onInput(in trace.Line) {
	l.mu.Lock()
	switch in.Kind {
	case trace.Lift:
		l.hands.Lift(in.Square)
	case trace.Place:
		l.hands.Place(in.Square)
	case trace.Frame, trace.Setup:
		l.hands.Forget()
	case trace.Arbiter:
		l.hands.Forget()
		if in.Action == trace.ActionNewGame {
			// A new game: the notes of the last one go with it.
			l.notes, l.ply, l.clock = nil, 0, nil
		}
	}
	l.mu.Unlock()
	l.notify(Change{})
}

// do runs fn on the runner's goroutine, bounded by the board's timeout and
// its Close.
func (l *Local) do(ctx context.Context, fn func(p *game.Game, now time.Duration)) error {
	ctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	unhook := context.AfterFunc(l.ctx, cancel)
	defer unhook()
	if err := l.r.Do(ctx, fn); err != nil {
		return fmt.Errorf("console: board %s not answering: %w", l.opts.ID, err)
	}
	return nil
}

// query runs fn on the runner's goroutine and returns its value. fn may
// still run after a timeout has made query return (Runner.Do gives up
// waiting, not the call), so its value goes through a channel, never a
// variable the caller reads.
func query[T any](l *Local, ctx context.Context, fn func(p *game.Game) T) (T, error) {
	ch := make(chan T, 1)
	if err := l.do(ctx, func(p *game.Game, _ time.Duration) { ch <- fn(p) }); err != nil {
		var zero T
		return zero, err
	}
	return <-ch, nil
}

// fingerprint is what the poll compares to see a change.
type fingerprint struct {
	frame   led.Frame
	occ     board.Occupancy
	moves   int
	pending bool
	result  bool
	faults  string // LocalOptions.Faults, joined
	pair    string // LocalOptions.Pair, in JSON
}

func (l *Local) poll() {
	defer close(l.done)
	if l.opts.Poll < 0 {
		<-l.ctx.Done()
		return
	}
	tick := time.NewTicker(l.opts.Poll)
	defer tick.Stop()
	var last fingerprint
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-tick.C:
		}
		l.mu.Lock()
		watched := len(l.watchers) > 0
		l.mu.Unlock()
		if !watched {
			continue
		}
		fp, err := query(l, l.ctx, func(p *game.Game) fingerprint {
			s := p.Snapshot()
			return fingerprint{frame: l.frame(s), occ: s.Occupancy, moves: s.Moves, pending: s.Pending != nil, result: s.Result != nil}
		})
		if err != nil {
			continue
		}
		if l.opts.Faults != nil {
			fp.faults = strings.Join(l.opts.Faults(), ",")
		}
		if l.opts.Pair != nil {
			if b, err := json.Marshal(l.opts.Pair()); err == nil {
				fp.pair = string(b)
			}
		}
		if fp != last {
			last = fp
			l.notify(Change{})
		}
	}
}

// frame is what the LEDs show: the game's frame, with the layer over it.
func (l *Local) frame(s *game.Snapshot) led.Frame {
	f := lighting.Compose(s)
	if l.opts.Layer != nil {
		layer := l.opts.Layer()
		f = led.Overlay(&f, &layer)
	}
	return f
}

// State returns a snapshot taken on the runner's goroutine.
func (l *Local) State(ctx context.Context) (State, error) {
	ch := make(chan State, 1)
	if err := l.do(ctx, func(p *game.Game, now time.Duration) { ch <- l.snapshot(p, now) }); err != nil {
		return State{}, err
	}
	return <-ch, nil
}

// PGN returns the game as played.
func (l *Local) PGN(ctx context.Context) (string, error) {
	return query(l, ctx, func(p *game.Game) string { return p.PGN() })
}

// Submit applies an input through the runner, exactly as hardware inputs
// are applied. A lift from an empty square or a placement on an occupied one
// is refused before it reaches the game; so is a choice the game does not
// offer.
func (l *Local) Submit(ctx context.Context, in trace.Line) error {
	if in.Kind == trace.Lift || in.Kind == trace.Place {
		occ, err := query(l, ctx, func(p *game.Game) board.Occupancy { return p.Snapshot().Occupancy })
		if err != nil {
			return err
		}
		switch {
		case in.Kind == trace.Lift && !occ.Has(in.Square):
			return &RefusedError{fmt.Errorf("lift %s: no man stands on %s", in.Square, in.Square)}
		case in.Kind == trace.Place && occ.Has(in.Square):
			return &RefusedError{fmt.Errorf("place %s: a man already stands on %s", in.Square, in.Square)}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, l.opts.Timeout)
	defer cancel()
	unhook := context.AfterFunc(l.ctx, cancel)
	defer unhook()
	// A player's name the game would refuse (an engine's side) is not
	// journalled either.
	var check func(g *game.Game) error
	if _, ok := game.NameTag(in.Action); ok && in.Kind == trace.Arbiter {
		check = func(g *game.Game) error { return g.CheckName(in.Action, in.Value) }
	}
	err := l.r.SubmitIf(ctx, in, check)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("console: board %s not answering: %w", l.opts.ID, err)
		}
		return &RefusedError{err}
	}
	return nil
}

// snapshot builds the state as of now; it runs on the runner's goroutine.
func (l *Local) snapshot(p *game.Game, now time.Duration) State {
	snap := p.Snapshot()
	pos := snap.Position
	shown := snap.Expected
	occ := snap.Occupancy
	laws := snap.Laws
	st := State{
		Board:      l.opts.ID,
		Simulated:  l.opts.Simulated,
		Laws:       Laws{ID: laws.ID, Name: laws.Name, Year: laws.Year},
		Tournament: l.opts.Tournament,
		FEN:        pos.FEN(),
		Turn:       pos.Turn.String(),
		Men:        map[string]string{},
		Lifted:     map[string]string{},
		Occupied:   occ.SquareNames(),
		Missing:    []string{},
		Extra:      []string{},
	}
	rec := p.Record()
	st.Moves = pgnMoves(pgn.Write(&rec))
	st.StartFEN = l.positions.fill(movetextStart(&rec), st.Moves)
	st.Players = playersOf(rec.Tags)

	l.mu.Lock()
	l.ply = snap.Moves
	if occ == shown.Occupancy() {
		l.hands.Agree(&shown.Men)
	}
	for _, h := range l.hands.Held() {
		st.Hand = append(st.Hand, Held{Man: string(h.Man.FEN()), From: h.From.String()})
	}
	men, unknown := placement.Name(&l.hands, &shown.Men, occ)
	notes := make([]Note, len(l.notes))
	copy(notes, l.notes)
	if l.clock != nil {
		c := *l.clock
		st.Clock = &c
	}
	l.mu.Unlock()
	if snap.Clocks != nil {
		st.Clock = clockOf(snap.Clocks, now-snap.T)
	}

	for sq := range 64 {
		s := board.Square(sq)
		switch {
		case shown.Men[sq] != board.NoMan && !occ.Has(s):
			st.Lifted[s.String()] = string(shown.Men[sq].FEN())
		case unknown.Has(s):
			st.Men[s.String()] = "?"
		case men[sq] != board.NoMan:
			st.Men[s.String()] = string(men[sq].FEN())
		}
	}

	frame := l.frame(snap)
	for sq, role := range frame.Role {
		if role == led.Off {
			continue
		}
		c := role.Colour()
		st.LEDs = append(st.LEDs, LED{
			Square: board.Square(sq).String(),
			Role:   role.String(),
			Blink:  frame.Blink[sq].String(),
			Colour: fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B),
		})
	}
	if st.LEDs == nil {
		st.LEDs = []LED{}
	}

	st.Syncing, st.Mismatch = snap.Syncing, snap.Mismatch
	if st.Syncing {
		target := shown.Occupancy()
		st.Missing = (target &^ occ).SquareNames()
		st.Extra = (occ &^ target).SquareNames()
	}

	for i := range notes {
		notes[i].Ply = min(notes[i].Ply, len(st.Moves))
	}
	st.Notes = notes
	if pr := snap.Pending; pr != nil {
		st.Pending = &Pending{Kind: pr.Kind, Law: pr.Law, Offender: pr.Offender, Chooser: pr.Chooser, Options: pr.Options}
	}
	st.WarnOnly = snap.WarnOnly
	if wr := snap.Warning; wr != nil {
		st.Warning = &Warning{Kind: wr.Kind, Law: wr.Law, Offender: wr.Offender, Squares: []string{}, Words: wr.Reason}
		for _, o := range wr.Options {
			st.Warning.Squares = append(st.Warning.Squares, o.Squares...)
		}
	}
	if ob := snap.Obligation; ob != nil {
		st.Obligation = &Obligation{Side: ob.Side.String(), What: ob.What, Square: ob.Square.String(), Destinations: ob.Destinations.SquareNames(), Law: ob.Law}
	}
	if r := snap.Result; r != nil {
		st.Result = &Result{Result: r.Result, Reason: r.Reason, Law: r.Law}
	}
	st.Faults = faultsOf(snap)
	if l.opts.Faults != nil {
		st.Faults = append(st.Faults, l.opts.Faults()...)
	}
	moves := &lazyAnalysis{pos: snap.Position}
	st.Remote = remoteOf(snap, moves)
	st.Landing = landingOf(snap, moves)
	if l.opts.Notices != nil {
		st.Notices = l.opts.Notices()
	}
	if l.opts.Pair != nil {
		st.Pair = l.opts.Pair()
		if n := pairNotice(st.Pair); n != "" {
			st.Notices = append(st.Notices, n)
		}
	}
	if l.opts.Opponent != nil {
		st.Opponent = l.opts.Opponent.Opponent()
		dropStaleEvals(st.Opponent, snap.Moves)
	}
	return st
}

// dropStaleEvals drops from o the evaluations of another position than the
// one after moves (one the opponent had not yet let go of when the game
// changed, a take-back just made), so that the state never shows an
// earlier position's figure.
func dropStaleEvals(o *Opponent, moves int) {
	if o == nil {
		return
	}
	if o.Eval != nil && o.Eval.Ply != moves {
		o.Eval = nil
	}
	if o.HintEval != nil && o.HintEval.Ply != moves {
		o.Hint, o.HintEval = "", nil
	}
}

// playersOf names the players from a game's tags; "?" is unknown.
func playersOf(tags map[string]string) Players {
	name := func(tag string) string {
		if v := tags[tag]; v != "?" {
			return v
		}
		return ""
	}
	return Players{White: name("White"), Black: name("Black")}
}

// clockOf is the clocks as the page shows them, since later than the
// snapshot took them: the running side's time is counted down by since.
func clockOf(k *game.Clocks, since time.Duration) *Clock {
	c := &Clock{White: k.White, Black: k.Black, WhiteMs: k.WhiteLeft.Milliseconds(), BlackMs: k.BlackLeft.Milliseconds()}
	switch k.Status {
	case clock.Running:
		c.Running = k.Running.String()
		left := &c.WhiteMs
		if k.Running == board.Black {
			left = &c.BlackMs
		}
		*left = max(0, *left-max(0, since).Milliseconds())
	case clock.Flagged:
		c.Flag = k.Running.String()
	}
	return c
}

// faultsOf names the faults a snapshot shows, never nil.
func faultsOf(snap *game.Snapshot) []string {
	faults := []string{}
	if snap.Fault {
		faults = append(faults, "sensor")
	}
	if snap.JournalFault {
		faults = append(faults, "journal")
	}
	return faults
}

// lazyAnalysis analyses a snapshot's position (its legal moves, for SAN)
// once, and only if something asks: most states need none.
type lazyAnalysis struct {
	pos  board.Position
	an   *board.Analysis
	done bool
}

// get returns the analysis, or nil for a position that cannot be analysed.
func (l *lazyAnalysis) get() *board.Analysis {
	if !l.done {
		l.done = true
		l.an, _ = board.Analyse(l.pos)
	}
	return l.an
}

// landingOf is the move a snapshot shows as pending, or nil.
func landingOf(snap *game.Snapshot, pos *lazyAnalysis) *Landing {
	if !snap.HasLanding {
		return nil
	}
	m := snap.Landing
	l := &Landing{UCI: m.UCI(), From: m.From.String(), To: m.To.String(), Needs: snap.LandingNeeds}
	an := pos.get()
	if an != nil && an.IsLegal(m) {
		l.SAN = an.SAN(m)
	} else if an != nil && m.Promo == board.NoKind {
		// A promotion not yet named: any piece makes it legal.
		q := m
		q.Promo = board.Queen
		if an.IsLegal(q) {
			// The piece, and so any check, is not known yet: "a8", not
			// "a8=Q+".
			l.SAN, _, _ = strings.Cut(an.SAN(q), "=")
		}
	}
	return l
}

// remoteOf says who plays from off the board and what the player must do
// for them; nil when both sides play at the board.
func remoteOf(snap *game.Snapshot, pos *lazyAnalysis) *Remote {
	if !snap.Remote[board.White] && !snap.Remote[board.Black] && !snap.HasHint {
		return nil
	}
	r := &Remote{White: snap.Remote[board.White], Black: snap.Remote[board.Black]}
	if !snap.HasAwaiting && !snap.HasHint {
		return r
	}
	an := pos.get()
	if an == nil {
		return r
	}
	announce := func(m board.Move) *RemoteMove {
		return &RemoteMove{UCI: m.UCI(), SAN: an.SAN(m), From: m.From.String(), To: m.To.String()}
	}
	if snap.HasAwaiting {
		r.Awaiting = announce(snap.Awaiting)
	}
	if snap.HasHint {
		r.Hint = announce(snap.Hint)
	}
	return r
}

// pairNotice says in words what is out of reach of a paired board, and
// what the other board offers or asks (a draw, a take-back) or refused; "" when
// nothing is.
func pairNotice(p *Pair) string {
	if p == nil {
		return ""
	}
	var notes []string
	switch p.Gone {
	case "board":
		notes = append(notes, "The other board ("+p.Other+") has gone away; the game waits for it.")
	case "broker":
		notes = append(notes, "The hall's broker is out of reach; the game waits for it.")
	}
	if p.DrawOffer != "" {
		law := ""
		if p.Law != "" {
			law = " (" + p.Law + ")"
		}
		notes = append(notes, cap1(p.DrawOffer)+" offers a draw"+law+": accept with Offer a draw, decline by moving.")
	}
	if n := p.TakeBackAsked; n > 0 {
		moves := "his last move"
		if n > 1 {
			moves = fmt.Sprintf("%d moves", n)
		}
		notes = append(notes, "The other board's player asks to take back "+moves+": agree with Take back, refuse by moving.")
	}
	switch p.TakeBack {
	case "asked":
		notes = append(notes, "Take-back asked: it waits for the other board's player to agree.")
	case "refused":
		notes = append(notes, "The other board's player played on: no take-back.")
	}
	return strings.Join(notes, " ")
}

// cap1 capitalises a side's name ("white": "White").
func cap1(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
