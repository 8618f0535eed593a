package hwtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// LoadOptions configure a load run of the club hall: N simulated boards,
// each the daemon's own game, journal and uplink with an MQTT client of
// its own, replay games against one broker and one hall.
type LoadOptions struct {
	Boards int
	// MoveEvery is the pace the boards' traces are made at: each board
	// moves once every MoveEvery (2 s: blitz). Speed replays them faster
	// (2: twice as fast) or slower; 1 if zero.
	MoveEvery time.Duration
	Speed     float64
	// Duration is how long the boards play (the measured window).
	Duration time.Duration
	// Games are the games the boards play, board i the i-th (round robin),
	// from the start position; promotions and what follows are cut off.
	Games []Game
	// Broker returns board id's broker connection (its credentials).
	Broker func(id string) (*broker.Config, error)
	// Verifier is the hall's verify key: the boards carry out the actions
	// it signed.
	Verifier *actionsig.Verifier
	// Hall is the hall's web address (http://host:port); the run follows
	// the hall's state on its event stream (GET /api/hall/events).
	Hall string
	// HallPID and BrokerPID, when not 0, are measured: CPU and memory.
	HallPID, BrokerPID int
	// Spy, when set, is a connection allowed to read every board's events
	// (the hall's credentials): the run then also measures the latency
	// from a board's move to its event reaching a client of the broker, the
	// part of the whole that is not the hall's.
	Spy *broker.Config
	// Dir holds the boards' state directories.
	Dir    string
	Logger *slog.Logger
}

// LoadResult is what a load run measured.
type LoadResult struct {
	Boards  int
	Pace    time.Duration // a move every Pace per board
	Window  time.Duration // how long the boards played
	Moves   int           // moves the boards made
	Latency []time.Duration
	// BrokerLeg are the latencies from a board's move to its event reaching
	// the spy (with LoadOptions.Spy).
	BrokerLeg []time.Duration
	Messages  uint64 // messages the hall received in the window
	// Lost and Doubled count moves the hall does not hold, or holds twice,
	// once everything has arrived, against the boards' own.
	Lost, Doubled int
	// Duplicates and Gaps are the hall's counts of events dropped as held
	// already and as not following (a resend asked).
	Duplicates, Gaps uint64
	// CPU is the share of one core used over the window (1 = a whole core);
	// RSS the resident memory at the end, PeakRSS its high-water mark.
	HallCPU, BrokerCPU float64
	HallRSS, HallPeak  int64
	BrokerRSS          int64
	// DriverCPU is this process's share: the simulated boards themselves.
	DriverCPU float64
	CatchUp   time.Duration // from the end of play to the hall holding every move
}

// Percentile returns the p-th percentile of the latencies (nearest rank).
func (r *LoadResult) Percentile(p float64) time.Duration { return loadPercentile(r.Latency, p) }

func loadPercentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	rank := int(p/100*float64(len(s))+0.999999) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

// MessagesPerSecond is the hall's received message rate over the window.
func (r *LoadResult) MessagesPerSecond() float64 {
	if r.Window <= 0 {
		return 0
	}
	return float64(r.Messages) / r.Window.Seconds()
}

func loadMS(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// String is a one-paragraph summary.
func (r *LoadResult) String() string {
	s := fmt.Sprintf("%d boards, a move every %v each, %v: %d moves; latency board move -> hall state p50 %s p99 %s max %s (n=%d); %.0f messages/s into the hall; lost %d, doubled %d (hall dropped %d duplicates, %d gaps); caught up %v after play",
		r.Boards, r.Pace, r.Window.Round(time.Second), r.Moves, loadMS(r.Percentile(50)), loadMS(r.Percentile(99)), loadMS(r.Percentile(100)), len(r.Latency),
		r.MessagesPerSecond(), r.Lost, r.Doubled, r.Duplicates, r.Gaps, r.CatchUp.Round(time.Millisecond))
	if len(r.BrokerLeg) > 0 {
		s += fmt.Sprintf("; of which board -> broker -> a client p50 %s p99 %s max %s", loadMS(loadPercentile(r.BrokerLeg, 50)),
			loadMS(loadPercentile(r.BrokerLeg, 99)), loadMS(loadPercentile(r.BrokerLeg, 100)))
	}
	if r.HallRSS > 0 {
		s += fmt.Sprintf("; hall CPU %.0f%% of a core, RSS %.1f MiB (peak %.1f MiB)", 100*r.HallCPU, loadMiB(r.HallRSS), loadMiB(r.HallPeak))
	}
	if r.BrokerRSS > 0 {
		s += fmt.Sprintf("; broker CPU %.0f%%, RSS %.1f MiB", 100*r.BrokerCPU, loadMiB(r.BrokerRSS))
	}
	s += fmt.Sprintf("; the simulated boards' process %.0f%%", 100*r.DriverCPU)
	return s
}

func loadMiB(b int64) float64 { return float64(b) / (1 << 20) }

// loadBoard is one simulated board of a run.
type loadBoard struct {
	id    string
	b     *halltest.Board
	lines []trace.Line
	plies int

	mu     sync.Mutex
	made   []time.Time // when each move was made
	seen   int         // moves the hall's state has shown
	inRun  bool
	played int // moves made within the window
}

// loadTrace makes a game's hand events, a move every pace: each move's
// events 80 ms apart, the whole game plies moves long at most.
func loadTrace(g Game, pace time.Duration, phase time.Duration, plies int) ([]trace.Line, int, error) {
	if g.Start.FEN() != board.StartFEN {
		return nil, 0, fmt.Errorf("hwtest: load: %s does not start from the initial position", g.Name)
	}
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: time.Millisecond, Pause: time.Millisecond})
	var out []trace.Line
	n := 0
	for _, m := range g.Moves {
		if n == plies {
			break
		}
		pos := p.Pos
		if pos.IsPromotion(m) {
			break
		}
		before := len(p.Lines)
		if err := p.Move(m.UCI()); err != nil {
			return nil, 0, fmt.Errorf("hwtest: load: %s: %w", g.Name, err)
		}
		at := phase + time.Duration(n)*pace
		for j, l := range p.Lines[before:] {
			l.T = at + time.Duration(j)*80*time.Millisecond
			out = append(out, l)
		}
		n++
	}
	return out, n, nil
}

// RunLoad runs the boards against the broker and the hall and measures.
func RunLoad(ctx context.Context, o LoadOptions) (*LoadResult, error) {
	if o.Boards <= 0 || o.MoveEvery <= 0 || o.Duration <= 0 || len(o.Games) == 0 || o.Broker == nil || o.Hall == "" || o.Dir == "" {
		return nil, errors.New("hwtest: load: boards, pace, duration, games, broker, hall and directory are required")
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	pace := time.Duration(float64(o.MoveEvery) / o.Speed)
	plies := int(o.Duration/pace) + 1
	var games []Game
	for _, g := range o.Games {
		if len(g.Moves) >= plies && g.Start.FEN() == board.StartFEN {
			games = append(games, g)
		}
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("hwtest: load: no game of %d moves or more from the initial position", plies)
	}
	res := &LoadResult{Boards: o.Boards, Pace: pace}
	boards := make([]*loadBoard, o.Boards)
	byID := map[string]*loadBoard{}
	defer func() {
		var wg sync.WaitGroup
		for _, lb := range boards {
			if lb != nil && lb.b != nil {
				wg.Go(func() { lb.b.Close() })
			}
		}
		wg.Wait()
	}()
	// The boards start one after another: the chess library behind package
	// board parses FENs through shared buffers (a new game parses one).
	for i := range boards {
		id := fmt.Sprintf("load%03d", i+1)
		phase := time.Duration(i) * pace / time.Duration(o.Boards)
		lines, n, err := loadTrace(games[i%len(games)], o.MoveEvery, time.Duration(float64(phase)*o.Speed), plies)
		if err != nil {
			return nil, err
		}
		for j := range lines {
			lines[j].T = time.Duration(float64(lines[j].T) / o.Speed)
		}
		cfg, err := o.Broker(id)
		if err != nil {
			return nil, err
		}
		lb := &loadBoard{id: id, lines: lines, plies: n}
		dir := filepath.Join(o.Dir, id)
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("hwtest: load: %w", err)
		}
		lb.b, err = halltest.Start(ctx, halltest.Options{
			ID: id, Dir: dir, Broker: cfg, Verifier: o.Verifier, Logger: o.Logger.With("board", id),
			Game: game.Options{Laws: "fide2023", Timing: game.Timing{Settle: 150 * time.Millisecond}},
			OnMove: func(_ uint64, _ report.Report, at time.Time) {
				lb.mu.Lock()
				lb.made = append(lb.made, at)
				if lb.inRun {
					lb.played++
				}
				lb.mu.Unlock()
			},
		})
		if err != nil {
			return nil, fmt.Errorf("hwtest: load: board %s: %w", id, err)
		}
		boards[i] = lb
		byID[id] = lb
	}

	// Follow the hall's state.
	sctx, stopStream := context.WithCancel(ctx)
	defer stopStream()
	var latMu sync.Mutex
	var lat []time.Duration
	recordLatency := false
	ready := make(chan struct{})
	var readyOnce sync.Once
	heard := map[string]bool{}
	streamErr := make(chan error, 1)
	go func() {
		streamErr <- loadFollowHall(sctx, o.Hall, func(s loadSummary, now time.Time) {
			lb := byID[s.ID]
			if lb == nil {
				return
			}
			if s.Heard && s.Online && !heard[s.ID] {
				heard[s.ID] = true
				if len(heard) == len(boards) {
					readyOnce.Do(func() { close(ready) })
				}
			}
			lb.mu.Lock()
			var got []time.Duration
			for lb.seen < s.Moves && lb.seen < len(lb.made) {
				got = append(got, now.Sub(lb.made[lb.seen]))
				lb.seen++
			}
			lb.mu.Unlock()
			latMu.Lock()
			if recordLatency {
				lat = append(lat, got...)
			}
			latMu.Unlock()
		})
	}()
	select {
	case <-ready:
	case err := <-streamErr:
		return nil, fmt.Errorf("hwtest: load: the hall's event stream: %w", err)
	case <-time.After(60 * time.Second):
		return nil, fmt.Errorf("hwtest: load: the hall heard %d of %d boards in a minute", len(heard), len(boards))
	case <-ctx.Done():
		return nil, ctx.Err()
	}

	var spyMu sync.Mutex
	var spyLat []time.Duration
	spyOn := false
	if o.Spy != nil {
		spy, err := broker.Connect(sctx, broker.ClientOptions{Config: o.Spy, ClientID: "boardd-load-spy", OnMessage: func(_ string, payload []byte, _ bool) {
			now := time.Now()
			var e struct {
				At     *time.Time `json:"at"`
				Report struct {
					Type report.Type `json:"type"`
				} `json:"report"`
			}
			if json.Unmarshal(payload, &e) != nil || e.At == nil || e.Report.Type != report.Move {
				return
			}
			spyMu.Lock()
			if spyOn {
				spyLat = append(spyLat, now.Sub(*e.At))
			}
			spyMu.Unlock()
		}})
		if err != nil {
			return nil, err
		}
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err = spy.AwaitConnection(actx)
		if err == nil {
			_, err = spy.Subscribe(actx, wire.Every(wire.KindEvent))
		}
		cancel()
		if err != nil {
			return nil, fmt.Errorf("hwtest: load: the spy: %w", err)
		}
		spyMu.Lock()
		spyOn = true
		spyMu.Unlock()
	}
	before, err := loadHallOverview(ctx, o.Hall)
	if err != nil {
		return nil, err
	}
	cpu0 := map[int]time.Duration{}
	self := os.Getpid()
	for _, pid := range []int{o.HallPID, o.BrokerPID, self} {
		if pid != 0 {
			cpu0[pid], _ = loadProcCPU(pid)
		}
	}
	latMu.Lock()
	recordLatency = true
	latMu.Unlock()
	for _, lb := range boards {
		lb.mu.Lock()
		lb.inRun = true
		lb.mu.Unlock()
	}
	start := time.Now().Add(200 * time.Millisecond)
	end := start.Add(o.Duration)
	pctx, cancelPlay := context.WithDeadline(ctx, end)
	var wg sync.WaitGroup
	errs := make(chan error, len(boards))
	for _, lb := range boards {
		wg.Go(func() {
			if err := loadPlayAt(pctx, lb.b, lb.lines, start); err != nil && pctx.Err() == nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	cancelPlay()
	res.Window = time.Since(start)
	after, err := loadHallOverview(ctx, o.Hall)
	if err != nil {
		return nil, err
	}
	res.Messages = after.Stats.Messages - before.Stats.Messages
	for _, pid := range []int{o.HallPID, o.BrokerPID, self} {
		if pid == 0 {
			continue
		}
		c1, err := loadProcCPU(pid)
		if err != nil {
			continue
		}
		share := (c1 - cpu0[pid]).Seconds() / res.Window.Seconds()
		rss, peak, _ := loadProcRSS(pid)
		switch pid {
		case self:
			res.DriverCPU = share
		case o.HallPID:
			res.HallCPU, res.HallRSS, res.HallPeak = share, rss, peak
		default:
			res.BrokerCPU, res.BrokerRSS = share, rss
		}
	}
	select {
	case err := <-errs:
		return nil, err
	default:
	}

	// Let the last moves settle and reach the hall, then compare.
	stopped := time.Now()
	deadline := stopped.Add(30 * time.Second)
	var lost, doubled int
	for {
		lost, doubled = 0, 0
		ok := true
		for _, lb := range boards {
			played := loadUCI(lb.b.Moves())
			held, err := loadHallMoves(ctx, o.Hall, lb.id)
			if err != nil {
				return nil, err
			}
			l, d := loadCompare(played, held)
			lost, doubled = lost+l, doubled+d
			if l+d > 0 {
				ok = false
			}
		}
		if ok || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	res.CatchUp = time.Since(stopped)
	res.Lost, res.Doubled = lost, doubled
	final, err := loadHallOverview(ctx, o.Hall)
	if err != nil {
		return nil, err
	}
	for _, s := range final.Boards {
		if byID[s.ID] != nil {
			res.Duplicates += s.Duplicates
			res.Gaps += s.Gaps
		}
	}
	for _, lb := range boards {
		lb.mu.Lock()
		res.Moves += lb.played
		lb.mu.Unlock()
	}
	latMu.Lock()
	res.Latency = lat
	latMu.Unlock()
	spyMu.Lock()
	res.BrokerLeg = spyLat
	spyMu.Unlock()
	return res, nil
}

// playAt feeds lines to a board, each at start plus its time.
func loadPlayAt(ctx context.Context, b *halltest.Board, lines []trace.Line, start time.Time) error {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for _, l := range lines {
		if d := time.Until(start.Add(l.T)); d > 0 {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				return nil
			case <-timer.C:
			}
		}
		if err := b.Runner.Submit(ctx, l); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("hwtest: load: board %s: %w", b.ID(), err)
		}
	}
	return nil
}

func loadUCI(reports []report.Report) []string {
	out := make([]string, len(reports))
	for i, r := range reports {
		out[i] = r.UCI
	}
	return out
}

// compareMoves counts the moves played that the hall does not hold (lost)
// and those it holds beyond them (doubled).
func loadCompare(played, held []string) (lost, doubled int) {
	i := 0
	for i < len(played) && i < len(held) && played[i] == held[i] {
		i++
	}
	if i == len(played) {
		return 0, len(held) - i
	}
	if i == len(held) {
		return len(played) - i, 0
	}
	// They part ways: whatever differs counts both ways.
	return len(played) - i, len(held) - i
}

// loadSummary is the part of the hall's board summary a run follows.
type loadSummary struct {
	ID         string `json:"id"`
	Heard      bool   `json:"heard"`
	Online     bool   `json:"online"`
	Moves      int    `json:"moves"`
	Duplicates uint64 `json:"duplicates"`
	Gaps       uint64 `json:"gaps"`
}

type loadOverview struct {
	Stats struct {
		Messages uint64 `json:"messages"`
	} `json:"stats"`
	Boards []loadSummary `json:"boards"`
}

// followHall reads the hall's event stream and calls fn with each board
// summary and the time it arrived.
func loadFollowHall(ctx context.Context, base string, fn func(loadSummary, time.Time)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/hall/events", nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /api/hall/events: %s", res.Status)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			now := time.Now()
			data := []byte(line[len("data: "):])
			switch event {
			case "board":
				var s loadSummary
				if err := json.Unmarshal(data, &s); err == nil {
					fn(s, now)
				}
			case "hall":
				var h loadOverview
				if err := json.Unmarshal(data, &h); err == nil {
					for _, s := range h.Boards {
						fn(s, now)
					}
				}
			}
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the hall ended its event stream")
}

func loadHallOverview(ctx context.Context, base string) (*loadOverview, error) {
	var o loadOverview
	if err := loadGetJSON(ctx, base+"/api/hall", &o); err != nil {
		return nil, err
	}
	return &o, nil
}

func loadHallMoves(ctx context.Context, base, id string) ([]string, error) {
	var moves []struct {
		UCI string `json:"uci"`
	}
	if err := loadGetJSON(ctx, base+"/api/hall/boards/"+id+"/moves", &moves); err != nil {
		return nil, err
	}
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.UCI
	}
	return out, nil
}

func loadGetJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("hwtest: load: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("hwtest: load: GET %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		return fmt.Errorf("hwtest: load: GET %s: %w", url, err)
	}
	return nil
}

// loadClockTick is Linux's USER_HZ, the unit of /proc/PID/stat's times.
const loadClockTick = 100

// procCPU returns the CPU time (user and system) process pid has used.
func loadProcCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable", pid)
	}
	f := strings.Fields(s[i+1:])
	// After the command come state (field 3), ...; utime and stime are
	// fields 14 and 15 of the whole line, 12 and 13 here.
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: too short", pid)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable times", pid)
	}
	return time.Duration(u+st) * time.Second / loadClockTick, nil
}

// procRSS returns process pid's resident memory and its high-water mark.
func loadProcRSS(pid int) (rss, peak int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmRSS":
			rss = n << 10
		case "VmHWM":
			peak = n << 10
		}
	}
	return rss, peak, nil
}
