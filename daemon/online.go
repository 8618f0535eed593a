package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/lichess"
	"github.com/boardd/boardd/online"
	"github.com/boardd/boardd/opponent"
	"github.com/boardd/boardd/trace"
)

// LichessURLEnv names the environment variable that points boardd at
// another lichess than lichess.org: the tests' local server (package
// lichesstest). It is not a flag, so that nobody sets it by mistake.
const LichessURLEnv = "BOARDD_LICHESS_URL"

// lichessPlay is what `boardd run --lichess` was told to do: seek a game,
// accept challenges, or only resume (and take games started elsewhere).
type lichessPlay struct {
	seek   *lichess.Seek
	accept map[string]bool // challengers whose challenges are accepted (lowercase ids); "*" for anyone
}

// lichessFlags lays the --lichess-* flags over the configuration's
// [lichess] section (the flag names the key in a fault). A --lichess-accept
// that names nobody (",") is refused: leaving it off is how to accept none.
func lichessFlags(o *Options, c *config.Config, byFlag map[string]string) error {
	li := &c.Lichess
	if li.Play && o.Engine == "" {
		// lichess.play is --lichess; an engine named on the command
		// line plays instead for this run.
		o.Lichess = true
	}
	if o.LichessSeek != "" {
		li.Seek, byFlag["lichess.seek"] = o.LichessSeek, "--lichess-seek"
	}
	if o.LichessColor != "" {
		li.Color, byFlag["lichess.color"] = strings.ToLower(o.LichessColor), "--lichess-color"
	}
	if o.LichessRated {
		li.Rated, byFlag["lichess.rated"] = true, "--lichess-rated"
	}
	if o.LichessAccept != "" {
		li.Accept = nil
		for _, name := range strings.Split(o.LichessAccept, ",") {
			if name = strings.TrimSpace(name); name != "" {
				li.Accept = append(li.Accept, name)
			}
		}
		if len(li.Accept) == 0 {
			return fmt.Errorf("--lichess-accept %q names no lichess player: give names, comma-separated, or anyone", o.LichessAccept)
		}
		for i := range li.Accept {
			byFlag[fmt.Sprintf("lichess.accept[%d]", i)] = "--lichess-accept"
		}
	}
	return nil
}

// lichessPlayOf reads what `boardd run --lichess` is to do from the
// configuration's [lichess] section with the flags over it (c, checked).
// The --lichess-* flags go with --lichess, and online play excludes an
// engine.
func lichessPlayOf(o *Options, c *config.Config) (lichessPlay, error) {
	var p lichessPlay
	if !o.Lichess {
		if o.LichessSeek != "" || o.LichessAccept != "" || o.LichessColor != "" || o.LichessRated {
			return p, errors.New("--lichess-seek, --lichess-accept, --lichess-color and --lichess-rated go with --lichess")
		}
		return p, nil
	}
	online := "--lichess"
	if c.Lichess.Play {
		online = "lichess.play = true"
	}
	switch {
	case o.Engine != "":
		return p, errors.New("--lichess and --engine: the opponent is on lichess or an engine, not both")
	case c.Engine.Path != "":
		return p, fmt.Errorf("%s and engine.path %q in the configuration: the opponent is on lichess or an engine, not both (set engine.path = \"\" to play online)", online, c.Engine.Path)
	}
	li := c.Lichess
	if li.Seek != "" {
		initial, inc, want := config.LichessSeekClock(li.Seek)
		if want != "" {
			return p, fmt.Errorf("lichess.seek %q: expected %s", li.Seek, want)
		}
		p.seek = &lichess.Seek{Time: initial, Increment: inc, Rated: li.Rated, Color: li.Color}
	}
	if len(li.Accept) > 0 {
		p.accept = map[string]bool{}
		for _, name := range li.Accept {
			name = strings.ToLower(name)
			if name == "anyone" {
				name = "*"
			}
			p.accept[name] = true
		}
	}
	return p, nil
}

// onlinePlay is the running board's play on lichess: the client, the game
// being played (a session and the match that drives its player), and
// what the console and the buttons reach.
type onlinePlay struct {
	d       *daemon
	client  *lichess.Client
	account lichess.Account
	play    lichessPlay
	// tokenPath is the token's file, named in the advice when lichess
	// rejects the token.
	tokenPath string

	// newGame is told when the board begins a new game: the arbiter's (the
	// console's) new-game command, or the start position set up on a board
	// that waited for one.
	newGame chan struct{}

	mu        sync.Mutex
	session   *online.Session
	match     *opponent.Match
	searching string
	watchers  map[int]func()
	nextWatch int
	unwatch   []func()
	events    events
}

// startOnline checks the token and starts looking for the game to play:
// the account's game in progress, else a seek or a challenge. A missing,
// revoked or wrong-scope token stops boardd with a message saying what to
// do. Lichess out of reach (no answer, 5xx, 429) does not: boardd runs on
// without it and checks the token again with the client's backoff until
// lichess answers (awaitAccount).
func (d *daemon) startOnline() error {
	play, err := lichessPlayOf(&d.o, d.cfg)
	if err != nil {
		return UsageError{err}
	}
	if !d.o.Lichess {
		return nil
	}
	token, path, err := lichess.ReadToken(d.o.Getenv("CREDENTIALS_DIRECTORY"), d.stateDir)
	if err != nil {
		return UsageError{err}
	}
	lo := lichess.Options{BaseURL: d.o.Getenv(LichessURLEnv), Token: token, Logger: d.log}
	if d.lichessOptions != nil {
		d.lichessOptions(&lo)
	}
	client, err := lichess.New(lo)
	if err != nil {
		return UsageError{err}
	}
	ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
	account, err := client.CheckToken(ctx)
	cancel()
	unreachable := err != nil && lichess.Unreachable(err)
	if err != nil && !unreachable {
		return fmt.Errorf("%w (token from %s)", err, path)
	}
	op := &onlinePlay{d: d, client: client, account: account, play: play, tokenPath: path, watchers: map[int]func(){}, searching: "looking for the game to play on lichess"}
	if unreachable {
		op.searching = "lichess cannot be reached; trying again"
	} else {
		d.log.Info("lichess", "account", account.Username, "token_file", path)
	}
	op.watchBoard()
	d.online = op
	ctx, stop := context.WithCancel(d.ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if unreachable && !op.awaitAccount(ctx, err, path) {
			return
		}
		op.run(ctx)
	}()
	d.onClose(func() error {
		stop()
		<-done
		return nil
	})
	return nil
}

// awaitAccount checks the token again, with the client's backoff on its
// clock, until lichess answers, after the check at start found lichess out
// of reach (first). The outage is logged once, when it begins, and shown in
// the console's online panel with the next attempt's delay; lichess's
// return is logged too. It reports whether the token is good; if lichess
// rejects it when it answers, online play stops and says why (boardd,
// running, carries on without lichess).
func (op *onlinePlay) awaitAccount(ctx context.Context, first error, tokenPath string) bool {
	d := op.d
	backoff := op.client.NewBackoff()
	err := first
	for attempt := 1; ; attempt++ {
		delay := backoff.Next(err)
		if attempt == 1 {
			d.log.Warn("lichess cannot be reached; boardd runs on and checks the token again until lichess answers", "err", err, "retry", delay)
		} else {
			d.log.Debug("lichess still cannot be reached", "err", err, "retry", delay, "attempt", attempt)
		}
		op.setSearching(fmt.Sprintf("lichess cannot be reached (%v); trying again in %v", err, delay))
		if op.client.Wait(ctx, delay) != nil {
			return false
		}
		var account lichess.Account
		account, err = op.client.CheckToken(ctx)
		if ctx.Err() != nil {
			return false
		}
		switch {
		case err == nil:
			d.log.Info("lichess answers again", "account", account.Username, "token_file", tokenPath, "attempts", attempt+1)
			op.mu.Lock()
			op.account = account
			op.mu.Unlock()
			op.setSearching("looking for the game to play on lichess")
			return true
		case !lichess.Unreachable(err):
			err = fmt.Errorf("%w (token from %s)", err, tokenPath)
			d.log.Error("lichess: the token check failed; online play stops", "err", err)
			op.setSearching("online play stopped: " + err.Error())
			return false
		}
	}
}

// watchBoard tells op.newGame when the board begins a new game.
func (op *onlinePlay) watchBoard() {
	op.newGame = make(chan struct{}, 1)
	tell := func() {
		select {
		case op.newGame <- struct{}{}:
		default:
		}
	}
	op.d.runner.OnInput(func(l trace.Line) {
		if l.Kind == trace.Arbiter && l.Action == trace.ActionNewGame {
			tell()
		}
	})
	awaiting := false
	op.d.runner.OnChange(func(s *game.Snapshot) {
		if awaiting && s.Mode != game.AwaitNewGame && s.Result == nil {
			tell()
		}
		awaiting = s.Mode == game.AwaitNewGame
	})
}

// run plays lichess games one after the other until ctx ends: first the
// account's game in progress, or the seek. When a game is over, a seek is
// made again once the board begins a new game (the board's or the
// console's new-game command); without a seek, boardd goes on waiting for
// a challenge it accepts or a game started elsewhere.
func (op *onlinePlay) run(ctx context.Context) {
	seek := op.play.seek
	backoff := op.client.NewBackoff()
	outage := false
	for ctx.Err() == nil {
		info, err := op.find(ctx, seek)
		if err != nil && ctx.Err() == nil && lichess.Unreachable(err) {
			// Lichess went out of reach after the token check, or between
			// games: look again, spaced as the streams' reconnections are,
			// the seek kept for the next attempt.
			delay := backoff.Next(err)
			if !outage {
				op.d.log.Warn("lichess cannot be reached while looking for the game; trying again", "err", err, "retry", delay)
			}
			outage = true
			op.setSearching(fmt.Sprintf("lichess cannot be reached (%v); trying again in %v", err, delay))
			if op.client.Wait(ctx, delay) != nil {
				return
			}
			continue
		}
		seek = nil
		if err != nil {
			if ctx.Err() == nil {
				op.d.log.Error("lichess: no game to play", "err", err)
				op.setSearching("no game: " + err.Error())
			}
			return
		}
		if outage {
			op.d.log.Info("lichess answers again: a game found")
			outage, backoff = false, op.client.NewBackoff()
		}
		if err := op.playGame(ctx, info); err != nil && ctx.Err() == nil {
			if lichess.TokenAdvice(err) != "" {
				// The advice given at start, with the file to replace.
				err = fmt.Errorf("%w (token from %s); online play stops, the board's game stays in the journal", err, op.tokenPath)
			}
			op.d.log.Error("lichess: the game stopped", "game", info.GameID, "err", err)
			op.setSearching("the game " + info.GameID + " stopped: " + err.Error())
			if errors.Is(err, lichess.ErrTokenRejected) || errors.Is(err, lichess.ErrMissingScope) {
				return
			}
			continue
		}
		if op.play.seek != nil && ctx.Err() == nil {
			// The game is over: the next seek waits for the player's word,
			// a new game begun on the board.
			select {
			case <-ctx.Done():
				return
			case <-op.newGame:
			}
			seek = op.play.seek
		}
	}
}

func (op *onlinePlay) setSearching(text string) {
	op.mu.Lock()
	op.searching = text
	op.mu.Unlock()
	op.changed()
}

// events is the account's event stream as online play follows it: one
// stream, open from the first search for a game until online play stops,
// through the games (lichess closing it is mended by FollowEvents'
// reconnection with backoff). While find looks for a game, a game that
// starts is handed to it and a challenge is answered at once; during a
// game (or before the next seek) a challenge waits, and is answered when
// find looks again.
type events struct {
	started bool
	done    chan struct{} // closed when the stream stops for good
	err     error         // why, once done is closed

	finding    bool
	found      *lichess.GameInfo
	foundCh    chan struct{}                // told when found is set
	challenges map[string]lichess.Challenge // waiting, by id
}

// followEvents starts the event stream, once, for ctx's lifetime.
func (op *onlinePlay) followEvents(ctx context.Context) {
	op.mu.Lock()
	defer op.mu.Unlock()
	ev := &op.events
	if ev.started {
		return
	}
	ev.started, ev.done, ev.foundCh = true, make(chan struct{}), make(chan struct{}, 1)
	if ev.challenges == nil {
		ev.challenges = map[string]lichess.Challenge{}
	}
	go func() {
		err := op.client.FollowEvents(ctx, func(e lichess.Event) error {
			op.event(ctx, e)
			return nil
		}, nil)
		if ctx.Err() == nil {
			op.d.log.Error("lichess: the event stream stopped", "err", err)
		}
		op.mu.Lock()
		ev.err = fmt.Errorf("the event stream: %w", err)
		op.mu.Unlock()
		close(ev.done)
	}()
}

// event takes one event of the account's stream.
func (op *onlinePlay) event(ctx context.Context, e lichess.Event) {
	op.mu.Lock()
	sess := op.session
	op.mu.Unlock()
	current := ""
	if sess != nil {
		current = sess.State().GameID
	}
	op.mu.Lock()
	ev := &op.events
	finding := ev.finding
	switch e := e.(type) {
	case *lichess.GameStart:
		switch {
		case finding && playable(e.Game):
			g := e.Game
			ev.found = &g
			select {
			case ev.foundCh <- struct{}{}:
			default:
			}
		case finding:
			op.d.log.Info("lichess: a game the board cannot play is ignored", "game", e.Game.GameID, "variant", e.Game.Variant)
		case e.Game.GameID != current:
			op.d.log.Info("lichess: a game started while the board is busy; it is played once the board looks for a game", "game", e.Game.GameID, "playing", current)
		}
	case *lichess.GameFinish:
		op.d.log.Info("lichess: a game finished", "game", e.Game.GameID, "status", e.Game.Status, "playing", current)
	case *lichess.ChallengeEvent:
		if !finding && e.Challenge.Direction != "out" && e.Challenge.Status == "created" {
			if _, seen := ev.challenges[e.Challenge.ID]; !seen {
				op.d.log.Info("lichess: a challenge while the board is busy; it is answered once the board looks for a game", "challenge", e.Challenge.ID, "from", e.Challenge.Challenger.Name, "playing", current)
			}
			ev.challenges[e.Challenge.ID] = e.Challenge
		}
	case *lichess.ChallengeCanceled:
		delete(ev.challenges, e.Challenge.ID)
		op.d.log.Info("lichess: a challenge withdrawn", "challenge", e.Challenge.ID)
	}
	op.mu.Unlock()
	if c, ok := e.(*lichess.ChallengeEvent); ok && finding {
		op.challenge(ctx, c.Challenge)
	}
}

// find returns the game to play: the account's game in progress that the
// Board API can play, else the one a seek or an accepted challenge starts
// (or one started elsewhere, e.g. in a browser), as the event stream
// announces it.
func (op *onlinePlay) find(ctx context.Context, seek *lichess.Seek) (lichess.GameInfo, error) {
	op.followEvents(ctx)
	op.mu.Lock()
	ev := &op.events
	ev.finding, ev.found = true, nil
	waiting := make([]lichess.Challenge, 0, len(ev.challenges))
	for _, c := range ev.challenges {
		waiting = append(waiting, c)
	}
	clear(ev.challenges)
	done, foundCh := ev.done, ev.foundCh
	op.mu.Unlock()
	defer func() {
		op.mu.Lock()
		ev.finding, ev.found = false, nil
		op.mu.Unlock()
	}()
	select {
	case <-foundCh: // a game announced before this search began is Playing's
	default:
	}
	playing, err := op.client.Playing(ctx)
	if err != nil {
		return lichess.GameInfo{}, err
	}
	for _, g := range playing {
		if playable(g) {
			op.d.log.Info("lichess: resuming the game in progress", "game", g.GameID)
			return g, nil
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if seek != nil {
		op.setSearching(fmt.Sprintf("seeking a %s game on lichess (%s+%d)", map[bool]string{true: "rated", false: "casual"}[seek.Rated], seek.Time, int(seek.Increment/time.Second)))
		go func() {
			// The game starts in the event stream, which is open.
			if _, err := op.client.Seek(ctx, *seek); err != nil && ctx.Err() == nil {
				op.d.log.Warn("lichess: the seek ended", "err", err)
			}
		}()
	} else {
		op.setSearching("waiting on lichess for a challenge or a game")
	}
	for _, c := range waiting {
		op.challenge(ctx, c)
	}
	for {
		select {
		case <-ctx.Done():
			return lichess.GameInfo{}, ctx.Err()
		case <-done:
			op.mu.Lock()
			err := ev.err
			op.mu.Unlock()
			return lichess.GameInfo{}, err
		case <-foundCh:
			op.mu.Lock()
			found := ev.found
			op.mu.Unlock()
			if found != nil {
				return *found, nil
			}
		}
	}
}

// playable says whether the board can play g: standard chess through the
// Board API.
func playable(g lichess.GameInfo) bool {
	if g.Status.Finished() {
		return false
	}
	switch g.Variant {
	case "", "standard":
	default:
		return false
	}
	_, ok := g.Side()
	return ok
}

// challenge accepts a challenge to the account from a player --lichess-accept
// names.
func (op *onlinePlay) challenge(ctx context.Context, c lichess.Challenge) {
	if c.Direction == "out" || c.Status != "created" {
		return
	}
	if !op.play.accept["*"] && !op.play.accept[strings.ToLower(c.Challenger.ID)] {
		op.d.log.Info("lichess: a challenge not accepted (--lichess-accept does not name the challenger)", "challenge", c.ID, "from", c.Challenger.Name)
		return
	}
	if c.Variant != "" && c.Variant != "standard" {
		op.d.log.Info("lichess: a challenge to a variant declined", "challenge", c.ID, "variant", c.Variant)
		_ = op.client.DeclineChallenge(ctx, c.ID, "standard")
		return
	}
	if err := op.client.AcceptChallenge(ctx, c.ID); err != nil {
		op.d.log.Warn("lichess: challenge not accepted", "challenge", c.ID, "err", err)
		return
	}
	op.d.log.Info("lichess: challenge accepted", "challenge", c.ID, "from", c.Challenger.Name)
}

// playGame plays g on the board until it is over on lichess.
func (op *onlinePlay) playGame(ctx context.Context, g lichess.GameInfo) error {
	d := op.d
	side, _ := g.Side()
	url := siteURL(d.o.Getenv(LichessURLEnv)) + "/" + g.GameID
	// The board's game is this game if its PGN names it (boardd restarted
	// mid-game); else the board begins a new game for it.
	local, snap, site, err := op.boardGame(ctx)
	if err != nil {
		return err
	}
	var sent []lichess.Sent
	logPath := online.SendLogPath(d.stateDir, g.GameID)
	if site == url && snap.Result == nil {
		if sent, err = online.LoadSendLog(logPath); err != nil {
			return err
		}
		d.log.Info("lichess: the board's journal holds the game; carrying on", "game", g.GameID, "moves", len(local))
	} else {
		if placement, _, _ := strings.Cut(g.FEN, " "); placement != "" && !strings.HasPrefix(board.StartFEN, placement+" ") {
			// Begun elsewhere (in a browser, on another board): the board
			// begins it from the start and the session guides the player
			// through the moves lichess has, each shown on the LEDs (the
			// board's side's as hints, the opponent's to carry out), until
			// the board has caught up.
			d.log.Info("lichess: the game has moves the board's journal does not hold (begun elsewhere): the board is guided through them from the start", "game", g.GameID, "position", g.FEN)
		}
		if snap.Moves > 0 || snap.Result != nil {
			l := trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter}
			if err := d.runner.Submit(ctx, l); err != nil {
				return fmt.Errorf("a new game on the board for lichess's: %w", err)
			}
		}
		local = nil
	}
	op.drainNewGame() // the board's new game for this one is not the next's
	s, err := online.New(online.Options{
		Client: op.client, Runner: d.runner, GameID: g.GameID, Side: side, SiteURL: siteURL(d.o.Getenv(LichessURLEnv)),
		Local: local, Sent: sent, SendLog: logPath, SetTag: op.setTag, Logger: d.log, Clock: d.clock,
	})
	if err != nil {
		return err
	}
	oppSide := opponent.Black
	if side == board.Black {
		oppSide = opponent.White
	}
	// The side played from lichess is this game's: a match reads a game in
	// progress's remote side from the board's game, which still has the
	// last game's (the other colour, after a seek for a random one).
	if err := d.runner.Submit(ctx, trace.Line{Kind: trace.Remote, Side: oppSide.String()}); err != nil {
		return fmt.Errorf("the board's side played from lichess (%v): %w", oppSide, err)
	}
	m, err := opponent.New(opponent.Options{Runner: d.runner, Player: s.Player(), Side: oppSide, SetTag: op.setTag, Logger: d.log})
	if err != nil {
		return err
	}
	op.mu.Lock()
	op.session, op.match, op.searching = s, m, ""
	op.unwatch = []func(){s.Watch(op.changed), m.Watch(op.changed)}
	op.mu.Unlock()
	op.changed()
	d.log.Info("lichess: playing", "game", g.GameID, "url", url, "side", side, "opponent", g.Opponent.Username)
	mctx, stopMatch := context.WithCancel(ctx)
	matchDone := make(chan struct{})
	go func() {
		defer close(matchDone)
		_ = m.Run(mctx)
	}()
	err = s.Run(ctx)
	stopMatch()
	<-matchDone
	op.mu.Lock()
	for _, u := range op.unwatch {
		u()
	}
	op.unwatch = nil
	op.mu.Unlock()
	if err == nil {
		st := s.State()
		d.log.Info("lichess: the game is over", "game", g.GameID, "status", st.Status, "result", st.Result)
		if op.play.seek != nil {
			op.setSearching("the game is over (" + st.Status + "); begin a new game on the board or in the console to seek another")
		} else {
			op.setSearching("the game is over (" + st.Status + "); waiting on lichess for a challenge or a game")
		}
	}
	return err
}

// drainNewGame forgets a new game the board began before now.
func (op *onlinePlay) drainNewGame() {
	select {
	case <-op.newGame:
	default:
	}
}

// siteURL is lichess's address for games' pages.
func siteURL(base string) string {
	if base == "" {
		return lichess.DefaultBaseURL
	}
	return strings.TrimRight(base, "/")
}

// boardGame reads the board's game: its moves from the start (UCI), its
// snapshot, and its PGN's Site tag.
func (op *onlinePlay) boardGame(ctx context.Context) ([]string, *game.Snapshot, string, error) {
	type result struct {
		moves []string
		snap  *game.Snapshot
		site  string
	}
	ch := make(chan result, 1)
	err := op.d.runner.Do(ctx, func(g *game.Game, _ time.Duration) {
		_, moves := g.Line()
		out := make([]string, len(moves))
		for i, m := range moves {
			out[i] = m.UCI()
		}
		ch <- result{out, g.Snapshot(), g.Record().Tags["Site"]}
	})
	if err != nil {
		return nil, nil, "", err
	}
	select {
	case r := <-ch:
		return r.moves, r.snap, r.site, nil
	default:
		return nil, nil, "", context.Canceled
	}
}

// setTag sets a PGN tag, journalled.
func (op *onlinePlay) setTag(ctx context.Context, name, value string) error {
	var err error
	if derr := op.d.runner.Do(ctx, func(_ *game.Game, now time.Duration) { err = op.d.journal.rec.SetTag(now, name, value) }); derr != nil {
		return derr
	}
	return err
}

func (op *onlinePlay) changed() {
	op.mu.Lock()
	fns := make([]func(), 0, len(op.watchers))
	for _, w := range op.watchers {
		fns = append(fns, w)
	}
	op.mu.Unlock()
	for _, w := range fns {
		w()
	}
}

// current returns the session and match of the game being played (nil
// while looking for one).
func (op *onlinePlay) current() (*online.Session, *opponent.Match, string) {
	op.mu.Lock()
	defer op.mu.Unlock()
	return op.session, op.match, op.searching
}

// press takes a button press on the opponent's side (nobody sits there):
// j'adoube asks to take back, check offers a draw, claim claims victory
// when the opponent has left. It reports whether the press was one.
func (op *onlinePlay) press(ctx context.Context, l trace.Line) bool {
	s, m, _ := op.current()
	if s == nil || l.Kind != trace.Press || l.Side != m.State().Side.String() {
		return false
	}
	var command string
	switch l.Button {
	case trace.ButtonJadoube:
		command = online.CommandTakeBack
	case trace.ButtonCheck:
		command = online.CommandDraw
	case trace.ButtonClaim:
		command = online.CommandClaimVictory
	default:
		op.d.log.Info("the lichess opponent's side's button does nothing", "button", l.Button, "side", l.Side)
		return true
	}
	if err := s.Do(ctx, command, ""); err != nil {
		op.d.log.Warn("lichess command by button not carried out", "button", l.Button, "command", command, "err", err)
	}
	return true
}

// console is the online game as the console's engine panel shows it.
func (op *onlinePlay) console() console.OpponentSource { return onlineSource{op} }

type onlineSource struct{ op *onlinePlay }

func (src onlineSource) Opponent() *console.Opponent {
	s, m, searching := src.op.current()
	if s == nil {
		return &console.Opponent{Name: "lichess", Side: "black", Commands: []string{}, Online: &console.Online{Searching: searching}}
	}
	return consoleOpponent(m.State(), s.State(), time.Now())
}

func (src onlineSource) Command(ctx context.Context, command, value string) error {
	s, _, _ := src.op.current()
	if s == nil {
		return &console.RefusedError{Err: errors.New("no game on lichess yet")}
	}
	return consoleCommand(ctx, s, command, value)
}

func (src onlineSource) Watch(fn func()) func() {
	op := src.op
	op.mu.Lock()
	id := op.nextWatch
	op.nextWatch++
	op.watchers[id] = fn
	op.mu.Unlock()
	return func() {
		op.mu.Lock()
		delete(op.watchers, id)
		op.mu.Unlock()
	}
}

// consoleOpponent is a game on lichess as the page shows it in the
// opponent's panel: the match's state (who plays which side, the move to
// carry out) and the session's (the game's page, the opponent's rating,
// lichess's clocks as of now, offers, link, notices), with the commands
// lichess takes now.
func consoleOpponent(ms opponent.State, st online.State, now time.Time) *console.Opponent {
	o := &console.Opponent{
		Name: st.Opponent, Side: ms.Side.String(), Thinking: ms.Thinking, Move: ms.Move, Fault: ms.Fault,
		Commands: []string{},
		Online: &console.Online{
			URL: st.URL, Rating: st.Rating, Title: st.Title, Rated: st.Rated, Speed: st.Speed,
			Status: st.Status, Result: st.Result, Up: st.Up, Link: st.Link,
			DrawOffered: st.DrawOffered, TakebackProposed: st.TakebackProposed, OpponentGone: st.OpponentGone,
			Notice: st.Notice,
		},
	}
	if o.Name == "" {
		o.Name = "?"
	}
	if st.Fault != "" {
		o.Fault = st.Fault
	}
	if c := st.Clocks; c != nil {
		o.Online.Clock, o.Online.WhiteMs, o.Online.BlackMs = true, c.White.Milliseconds(), c.Black.Milliseconds()
		o.Online.AgeMs = max(now.Sub(c.At).Milliseconds(), 0)
		if c.Running && st.Result == "" {
			o.Online.Running = st.Turn.String()
		}
	}
	if st.Result == "" && st.Fault == "" {
		o.Commands = append(o.Commands, online.CommandTakeBack, online.CommandDraw, online.CommandResign, online.CommandAbort)
		if st.DrawOffered || st.TakebackProposed {
			o.Commands = append(o.Commands, online.CommandDecline)
		}
		if st.OpponentGone {
			o.Commands = append(o.Commands, online.CommandClaimVictory)
		}
	}
	return o
}

// consoleCommand gives the session a command from the console's page;
// what lichess or the session refuses is a console.RefusedError (409).
func consoleCommand(ctx context.Context, s *online.Session, command, value string) error {
	err := s.Do(ctx, command, value)
	if errors.Is(err, online.ErrRefused) {
		return &console.RefusedError{Err: errors.New(strings.TrimPrefix(err.Error(), online.ErrRefused.Error()+": "))}
	}
	return err
}
