package hwtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/hall/actionsig"
	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/halltest"
	"github.com/boardd/boardd/hall/wire"
	"github.com/boardd/boardd/report"
)

// LoadOptions configure a load run of the club hall: N simulated boards,
// each with an MQTT client of its own, play games against one broker and
// one hall.
type LoadOptions struct {
	Boards int
	// Light makes the boards light ones (halltest.Light): each publishes
	// the protocol's messages of a corpus game, encoded once, with its own
	// MQTT client, credentials and session, but no game behind it. Without
	// it each board is the daemon's own game, journal and uplink
	// (halltest.Board), which costs the driver a whole game a board.
	Light bool
	// MoveEvery is the pace: each board moves once every MoveEvery (2 s:
	// blitz). Speed replays it faster (2: twice as fast) or slower; 1 if
	// zero.
	MoveEvery time.Duration
	Speed     float64
	// Duration is how long the boards play (the measured window).
	Duration time.Duration
	// Games are the games the boards play, board i the i-th (round robin),
	// from the start position; promotions and what follows are cut off.
	// Light boards play the first Scripts of them (64 if zero), each
	// encoded once.
	Games   []Game
	Scripts int
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
	// (LoadSpyUser's credentials): the run then also measures the latency
	// from a board's move to its event reaching a client of the broker.
	Spy *broker.Config
	// BrokerLog, when set, returns what the broker logged: the run counts
	// the times it dropped messages for a client that fell behind.
	BrokerLog func() string
	// Dir holds the full boards' state directories.
	Dir    string
	Logger *slog.Logger
	// Faults, when set, is called halfway through the window: it breaks
	// things (the fault mode kills the broker for 5 s, then SIGKILLs the
	// hall and starts it again) and returns when the broker came back.
	// The run then measures each board's catch-up: from the broker's
	// return until the hall's state holds every move the board had made
	// by then.
	Faults func(ctx context.Context) (back time.Time, err error)
}

// LoadResult is what a load run measured. Every latency is from a board's
// move (its report, after the journal has it; for a light board, when it
// makes the move) to a point on the way to the arbiter's page.
type LoadResult struct {
	Boards int
	Light  bool
	Pace   time.Duration // a move every Pace per board
	Window time.Duration // how long the boards played
	Moves  int           // moves the boards made in the window
	// Broker is to the broker's acknowledgement of the move's event, back
	// at the board (light boards only): board -> broker and back.
	Broker []time.Duration
	// Spy is to the event reaching a second client of the broker (with
	// LoadOptions.Spy): board -> broker -> any client.
	Spy []time.Duration
	// Received is to the hall taking the event from the broker; State to
	// the hall's state holding it (both stamped by the hall on the move,
	// GET /api/hall/boards/ID/moves); Page to the hall's event stream
	// showing it, as the grid page sees it.
	Received, State, Page []time.Duration
	Messages              uint64 // messages the hall received in the window
	// Lost and Doubled count moves the hall does not hold, or holds twice,
	// once everything has arrived, against the boards' own.
	Lost, Doubled int
	// Duplicates and Gaps are the hall's counts of events dropped as held
	// already and as not following (a resend asked).
	Duplicates, Gaps uint64
	// PageGet, HallGet and BroadcastGet are how long the hall took to
	// answer GET /, /api/hall (every board's summary) and
	// /broadcast/current.pgn (every board's game), asked every two seconds
	// during the run: the page and the broadcast still answering.
	PageGet, HallGet, BroadcastGet []time.Duration
	// BrokerDrops counts the broker's warnings that it dropped messages
	// for a client that fell behind its queue (max_queued_messages).
	BrokerDrops int
	// CPU is the share of one core used over the window (1 = a whole core);
	// RSS the resident memory at the end, PeakRSS its high-water mark.
	HallCPU, BrokerCPU float64
	HallRSS, HallPeak  int64
	BrokerRSS          int64
	// DriverCPU is this process's share: the simulated boards themselves.
	DriverCPU float64
	// MachineCPU is the share of the whole machine busy over the window (1
	// = every core), Cores how many it has: what else ran shows as
	// MachineCPU beyond the three processes.
	MachineCPU float64
	Cores      int
	Load       float64 // the load average (1 min) at the end
	CatchUp    time.Duration
	// FaultCatchUp, with LoadOptions.Faults, is each board's catch-up after
	// the faults: from the broker's return until the hall's state held
	// every move the board had made by then; FaultLate counts the boards
	// not caught up within a minute (left out of FaultCatchUp).
	FaultCatchUp []time.Duration
	FaultLate    int
	// BroadcastGames and BroadcastPlies, with LoadOptions.Faults, are what
	// the hall's broadcast (/broadcast/current.pgn) holds once everything
	// has arrived; MadePlies the moves the boards made in all.
	BroadcastGames, BroadcastPlies, MadePlies int
}

// FaultLine is the fault run's catch-up times, beside the usual table: ""
// without faults.
func (r *LoadResult) FaultLine() string {
	if len(r.FaultCatchUp) == 0 && r.FaultLate == 0 {
		return ""
	}
	return fmt.Sprintf("faults (broker killed 5 s, then the hall SIGKILLed and restarted, mid-round), %d boards: every board's state at the hall caught up from the broker's return in p50 %s, p99 %s, max %s; %d boards not within a minute; lost %d, doubled %d; the broadcast holds %d games, %d plies of the %d made",
		r.Boards, loadMS(percentile(r.FaultCatchUp, 50)), loadMS(percentile(r.FaultCatchUp, 99)), loadMS(percentile(r.FaultCatchUp, 100)), r.FaultLate, r.Lost, r.Doubled,
		r.BroadcastGames, r.BroadcastPlies, r.MadePlies)
}

// Percentile returns the p-th percentile of the board -> hall state
// latencies (nearest rank).
func (r *LoadResult) Percentile(p float64) time.Duration { return percentile(r.State, p) }

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

func loadMSf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func loadMiB(b int64) float64 { return float64(b) / (1 << 20) }

// Leg is one stretch of the way from a board's move to the page, with the
// p99 it adds (the difference of the cumulative p99s) and the process that
// does its work.
type Leg struct {
	Name    string
	P99     time.Duration // the p99 at the end of the leg
	Adds    time.Duration
	Process string
}

// Legs splits the way from a board's move to the page.
func (r *LoadResult) Legs() []Leg {
	var legs []Leg
	prev := time.Duration(0)
	add := func(name string, samples []time.Duration, process string) {
		if len(samples) == 0 {
			return
		}
		p := percentile(samples, 99)
		legs = append(legs, Leg{Name: name, P99: p, Adds: max(p-prev, 0), Process: process})
		prev = max(prev, p)
	}
	add("board -> broker", r.Broker, "the boards and the broker")
	add("broker -> hall", r.Received, "the broker")
	add("hall -> state", r.State, "the hall")
	add("hall -> page", r.Page, "the hall's event stream")
	return legs
}

// Bottleneck names what limits the run: the broker when its one thread is
// nearly a whole core, else the machine when its cores are nearly all
// busy (with the process that takes most), else the leg that adds most to
// the p99.
func (r *LoadResult) Bottleneck() string {
	procs := []struct {
		name string
		cpu  float64
	}{{"the simulated boards", r.DriverCPU}, {"the broker", r.BrokerCPU}, {"the hall", r.HallCPU}}
	slices.SortFunc(procs, func(a, b struct {
		name string
		cpu  float64
	}) int {
		switch {
		case a.cpu > b.cpu:
			return -1
		case a.cpu < b.cpu:
			return 1
		}
		return 0
	})
	switch {
	case r.BrokerCPU >= 0.85:
		return fmt.Sprintf("the broker: its one thread %.0f%% of a core", 100*r.BrokerCPU)
	case r.MachineCPU >= 0.9:
		other := r.MachineCPU*float64(max(r.Cores, 1)) - r.DriverCPU - r.BrokerCPU - r.HallCPU
		return fmt.Sprintf("the machine: %.0f%% of %d cores busy, most by %s (%.0f%% of a core; other work %.0f%%)",
			100*r.MachineCPU, r.Cores, procs[0].name, 100*procs[0].cpu, 100*max(other, 0))
	}
	legs := r.Legs()
	if len(legs) == 0 {
		return "-"
	}
	top := legs[0]
	for _, l := range legs[1:] {
		if l.Adds > top.Adds {
			top = l
		}
	}
	return fmt.Sprintf("none saturated (busiest: %s, %.0f%% of a core); most of the p99 is %s (+%s)",
		procs[0].name, 100*procs[0].cpu, top.Name, loadMS(top.Adds))
}

// String is a one-paragraph summary.
func (r *LoadResult) String() string {
	kind := "full"
	if r.Light {
		kind = "light"
	}
	s := fmt.Sprintf("%d %s boards, a move every %v each, %v: %d moves; board move -> hall state p50 %s p99 %s max %s (n=%d)",
		r.Boards, kind, r.Pace, r.Window.Round(time.Second), r.Moves, loadMS(r.Percentile(50)), loadMS(r.Percentile(99)), loadMS(r.Percentile(100)), len(r.State))
	for _, l := range r.Legs() {
		s += fmt.Sprintf("; %s p99 %s (+%s)", l.Name, loadMS(l.P99), loadMS(l.Adds))
	}
	if len(r.Spy) > 0 {
		s += fmt.Sprintf("; to any client of the broker p99 %s", loadMS(percentile(r.Spy, 99)))
	}
	if len(r.PageGet) > 0 {
		s += fmt.Sprintf("; the hall answered GET / within %s, /api/hall within %s, the broadcast within %s", loadMS(percentile(r.PageGet, 100)),
			loadMS(percentile(r.HallGet, 100)), loadMS(percentile(r.BroadcastGet, 100)))
	}
	s += fmt.Sprintf("; %.0f messages/s into the hall; lost %d, doubled %d (hall dropped %d duplicates, %d gaps; the broker warned %d times that it dropped messages); caught up %v after play",
		r.MessagesPerSecond(), r.Lost, r.Doubled, r.Duplicates, r.Gaps, r.BrokerDrops, r.CatchUp.Round(time.Millisecond))
	if r.HallRSS > 0 {
		s += fmt.Sprintf("; hall CPU %.0f%% of a core, RSS %.1f MiB (peak %.1f MiB)", 100*r.HallCPU, loadMiB(r.HallRSS), loadMiB(r.HallPeak))
	}
	if r.BrokerRSS > 0 {
		s += fmt.Sprintf("; broker CPU %.0f%%, RSS %.1f MiB", 100*r.BrokerCPU, loadMiB(r.BrokerRSS))
	}
	s += fmt.Sprintf("; the simulated boards' process %.0f%%; machine %.0f%% of %d cores busy, load %.1f; bottleneck: %s",
		100*r.DriverCPU, 100*r.MachineCPU, r.Cores, r.Load, r.Bottleneck())
	return s
}

// TableHeader and Row are the run as a line of docs/hall.md's table.
const LoadTableHeader = "| boards | moves | messages/s | to the broker p99 | to the hall p99 | hall state p50 | hall state p99 | hall state max | page p99 | GET /, /api/hall, broadcast (max) | lost | doubled | hall CPU | hall peak RSS | broker CPU | boards' CPU | machine busy | bottleneck |\n" +
	"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"

// Row is the run as a line of LoadTableHeader's table.
func (r *LoadResult) Row() string {
	p99 := func(s []time.Duration) string {
		if len(s) == 0 {
			return "-"
		}
		return loadMS(percentile(s, 99))
	}
	gets := "-"
	if len(r.PageGet) > 0 {
		gets = fmt.Sprintf("%.0f, %.0f, %.0f ms", loadMSf(percentile(r.PageGet, 100)), loadMSf(percentile(r.HallGet, 100)), loadMSf(percentile(r.BroadcastGet, 100)))
	}
	return fmt.Sprintf("| %d | %d | %.0f | %s | %s | %s | %s | %s | %s | %s | %d | %d | %.0f%% | %.1f MiB | %.0f%% | %.0f%% | %.0f%% (load %.1f) | %s |",
		r.Boards, r.Moves, r.MessagesPerSecond(), p99(r.Broker), p99(r.Received), loadMS(r.Percentile(50)), loadMS(r.Percentile(99)), loadMS(r.Percentile(100)),
		p99(r.Page), gets, r.Lost, r.Doubled, 100*r.HallCPU, loadMiB(r.HallPeak), 100*r.BrokerCPU, 100*r.DriverCPU, 100*r.MachineCPU, r.Load, r.Bottleneck())
}

// RunLoad runs the boards against the broker and the hall and measures.
func RunLoad(ctx context.Context, o LoadOptions) (*LoadResult, error) {
	if o.Boards <= 0 || o.MoveEvery <= 0 || o.Duration <= 0 || len(o.Games) == 0 || o.Broker == nil || o.Hall == "" || (o.Dir == "" && !o.Light) {
		return nil, errors.New("hwtest: load: boards, pace, duration, games, broker, hall and (for full boards) a directory are required")
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.Scripts <= 0 {
		o.Scripts = 64
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	// The boards' clients make short-lived garbage at every message: the
	// driver collects less often, trading its memory, plentiful, for its
	// CPU, which the boards, the broker and the hall share. (Not at all
	// costs more: fresh memory must be zeroed and faulted in.)
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	pace := time.Duration(float64(o.MoveEvery) / o.Speed)
	plies := int(o.Duration/pace) + 2
	var games [][]string
	for _, g := range o.Games {
		if moves, err := loadGameMoves(g, plies); err == nil && len(moves) == plies {
			games = append(games, moves)
		}
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("hwtest: load: no game of %d moves or more from the initial position", plies)
	}
	var scripts []*halltest.Script
	if o.Light {
		var err error
		if scripts, err = loadScripts(ctx, games[:min(len(games), o.Scripts)]); err != nil {
			return nil, err
		}
	}
	res := &LoadResult{Boards: o.Boards, Light: o.Light, Pace: pace}
	boards := make([]*loadBoard, o.Boards)
	byID := map[string]*loadBoard{}
	defer func() {
		var wg sync.WaitGroup
		for _, lb := range boards {
			if lb != nil && lb.close != nil {
				wg.Go(lb.close)
			}
		}
		wg.Wait()
	}()
	for i := range boards {
		boards[i] = newLoadBoard(loadID(i))
		byID[boards[i].id] = boards[i]
	}
	if err := startLoadBoards(ctx, o, boards, games, scripts, pace); err != nil {
		return nil, err
	}

	// Follow the hall's state as the grid page does.
	sctx, stopStream := context.WithCancel(ctx)
	defer stopStream()
	ready := make(chan struct{})
	var readyOnce sync.Once
	heard := map[string]bool{}
	streamErr := make(chan error, 1)
	go func() {
		for {
			err := loadFollowHall(sctx, o.Hall, func(s loadSummary, now time.Time) {
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
				lb.shown(s.Moves, now)
			})
			if o.Faults == nil || sctx.Err() != nil {
				streamErr <- err
				return
			}
			// The hall was killed: follow it again once it is back.
			time.Sleep(200 * time.Millisecond)
		}
	}()
	select {
	case <-ready:
	case err := <-streamErr:
		return nil, fmt.Errorf("hwtest: load: the hall's event stream: %w", err)
	case <-time.After(2 * time.Minute):
		return nil, fmt.Errorf("hwtest: load: the hall heard %d of %d boards in two minutes", len(heard), len(boards))
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
	self := os.Getpid()
	meter := startLoadMeter(o.HallPID, o.BrokerPID, self)
	for _, lb := range boards {
		lb.mu.Lock()
		lb.inRun = true
		lb.mu.Unlock()
	}
	start := time.Now().Add(200 * time.Millisecond)
	end := start.Add(o.Duration)
	pctx, cancelPlay := context.WithDeadline(ctx, end)
	var wg sync.WaitGroup
	errs := make(chan error, len(boards)+1)
	for _, lb := range boards {
		wg.Go(func() {
			if err := lb.play(pctx, start); err != nil && pctx.Err() == nil {
				errs <- err
			}
		})
	}
	var probed loadProbes
	probed.tolerant = o.Faults != nil
	wg.Go(func() {
		if err := probed.run(pctx, o.Hall); err != nil && pctx.Err() == nil {
			errs <- err
		}
	})
	var faultMu sync.Mutex
	var faultErr error
	if o.Faults != nil {
		wg.Go(func() {
			select {
			case <-time.After(time.Until(start.Add(o.Duration / 2))):
			case <-pctx.Done():
				return
			}
			back, err := o.Faults(ctx)
			if err == nil {
				res.FaultCatchUp, res.FaultLate, err = loadCatchUp(ctx, o.Hall, boards, back)
			}
			faultMu.Lock()
			faultErr = err
			faultMu.Unlock()
		})
	}
	wg.Wait()
	cancelPlay()
	res.PageGet, res.HallGet, res.BroadcastGet = probed.page, probed.hall, probed.broadcast
	res.Window = time.Since(start)
	after, err := loadHallOverview(ctx, o.Hall)
	if err != nil {
		return nil, err
	}
	res.Messages = after.Stats.Messages - before.Stats.Messages
	use := meter.stop(res.Window)
	res.DriverCPU = use.cpu[self]
	res.HallCPU, res.HallRSS, res.HallPeak = use.cpu[o.HallPID], use.rss[o.HallPID], use.peak[o.HallPID]
	res.BrokerCPU, res.BrokerRSS = use.cpu[o.BrokerPID], use.rss[o.BrokerPID]
	res.MachineCPU, res.Cores, res.Load = use.machine, use.cores, use.load
	select {
	case err := <-errs:
		return nil, err
	default:
	}
	faultMu.Lock()
	err = faultErr
	faultMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("hwtest: load: faults: %w", err)
	}
	for _, lb := range boards {
		lb.mu.Lock()
		lb.inRun = false
		lb.mu.Unlock()
	}

	// Let the last moves reach the hall, then compare, and read when the
	// hall took each move.
	stopped := time.Now()
	deadline := stopped.Add(60 * time.Second)
	var held map[string][]loadHallMove
	for {
		held, err = loadHallMovesAll(ctx, o.Hall, boards)
		if err != nil {
			return nil, err
		}
		res.Lost, res.Doubled = 0, 0
		for _, lb := range boards {
			l, d := loadCompare(lb.moves(), loadUCIs(held[lb.id]))
			res.Lost, res.Doubled = res.Lost+l, res.Doubled+d
		}
		if res.Lost+res.Doubled == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	res.CatchUp = time.Since(stopped)
	if o.Faults != nil {
		// The broadcast whole: every board's game, every move made.
		for _, lb := range boards {
			res.MadePlies += len(lb.moves())
		}
		if res.BroadcastGames, res.BroadcastPlies, err = loadBroadcast(ctx, o.Hall); err != nil {
			return nil, err
		}
	}
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
		hm := held[lb.id]
		lb.mu.Lock()
		res.Moves += lb.played
		if lb.firstIn >= 0 {
			for i := lb.firstIn; i < lb.firstIn+lb.played; i++ {
				t0 := lb.made[i]
				if i < len(lb.acked) && !lb.acked[i].IsZero() {
					res.Broker = append(res.Broker, lb.acked[i].Sub(t0))
				}
				if i < len(hm) && !hm[i].Received.IsZero() {
					res.Received = append(res.Received, hm[i].Received.Sub(t0))
					res.State = append(res.State, hm[i].Applied.Sub(t0))
				}
				if i < len(lb.page) {
					res.Page = append(res.Page, lb.page[i].Sub(t0))
				}
			}
		}
		lb.mu.Unlock()
	}
	spyMu.Lock()
	res.Spy = spyLat
	spyMu.Unlock()
	if o.BrokerLog != nil {
		res.BrokerDrops = strings.Count(o.BrokerLog(), "Outgoing messages are being dropped")
	}
	return res, nil
}

// loadCatchUp polls the hall's overview from back on until each board's
// state there holds every move the board had made by then, and returns each
// board's catch-up time, from back; boards not caught up within a minute are
// counted as late. The hall may be down for a while (restarting): a poll
// that fails is tried again.
func loadCatchUp(ctx context.Context, hall string, boards []*loadBoard, back time.Time) ([]time.Duration, int, error) {
	want := make(map[string]int, len(boards))
	for _, lb := range boards {
		lb.mu.Lock()
		n := 0
		for n < len(lb.made) && !lb.made[n].After(back) {
			n++
		}
		want[lb.id] = n
		lb.mu.Unlock()
	}
	var out []time.Duration
	deadline := back.Add(time.Minute)
	for len(want) > 0 && time.Now().Before(deadline) {
		o, err := loadHallOverview(ctx, hall)
		now := time.Now()
		if err == nil {
			for _, s := range o.Boards {
				if n, ok := want[s.ID]; ok && s.Moves >= n {
					out = append(out, now.Sub(back))
					delete(want, s.ID)
				}
			}
		}
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		time.Sleep(100 * time.Millisecond)
	}
	return out, len(want), nil
}

// loadProbes asks for the hall's page, its overview and its broadcast
// every two seconds, and times the whole answer. tolerant passes over an
// answer that fails (the fault mode: the hall is down a while).
type loadProbes struct {
	page, hall, broadcast []time.Duration
	tolerant              bool
}

func (p *loadProbes) run(ctx context.Context, base string) error {
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		for _, q := range []struct {
			path string
			into *[]time.Duration
		}{{"/", &p.page}, {"/api/hall", &p.hall}, {"/broadcast/current.pgn", &p.broadcast}} {
			t0 := time.Now()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+q.path, nil)
			if err != nil {
				return err
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				if p.tolerant {
					continue
				}
				return fmt.Errorf("hwtest: load: GET %s: %w", q.path, err)
			}
			_, err = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("hwtest: load: GET %s: %w", q.path, err)
			}
			if res.StatusCode != http.StatusOK {
				if p.tolerant {
					continue
				}
				return fmt.Errorf("hwtest: load: GET %s: %s", q.path, res.Status)
			}
			*q.into = append(*q.into, time.Since(t0))
		}
	}
}

// startLoadBoards starts every board, phased evenly over the pace: full
// boards one after another (the chess library behind package board parses
// FENs through shared buffers, and a new game parses one), light boards 64
// at a time.
func startLoadBoards(ctx context.Context, o LoadOptions, boards []*loadBoard, games [][]string, scripts []*halltest.Script, pace time.Duration) error {
	phase := func(i int) time.Duration { return time.Duration(i) * pace / time.Duration(len(boards)) }
	if !o.Light {
		for i, lb := range boards {
			cfg, err := o.Broker(lb.id)
			if err != nil {
				return err
			}
			// The trace is made at the game's pace and played at Speed.
			moves := games[i%len(games)]
			if err := startFullBoard(ctx, lb, moves, pace, phase(i), cfg, o.Verifier, loadBoardDir(o.Dir, lb.id), o.Logger.With("board", lb.id)); err != nil {
				return err
			}
		}
		return nil
	}
	errs := make([]error, len(boards))
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for i, lb := range boards {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			cfg, err := o.Broker(lb.id)
			if err == nil {
				err = startLightBoard(ctx, lb, scripts[i%len(scripts)], pace, phase(i), cfg, o.Logger.With("board", lb.id))
			}
			errs[i] = err
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func loadUCIs(moves []loadHallMove) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.UCI
	}
	return out
}

// loadCompare counts the moves played that the hall does not hold (lost)
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

// loadTableRows formats results as the rows of LoadTableHeader's table.
func loadTableRows(rs []*LoadResult) string {
	var rows []string
	for _, r := range rs {
		rows = append(rows, r.Row())
	}
	return LoadTableHeader + "\n" + strings.Join(rows, "\n")
}
