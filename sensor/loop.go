package sensor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// MaxMen is the most magnets a chess board can hold: a scan reading more
// occupied squares is a bus fault (a stuck-low data line), not a position.
const MaxMen = 32

// LoopOpts configure a scan loop.
type LoopOpts struct {
	// Rate is the scan rate in scans a second; 0 means 100.
	Rate float64
	// Retries is how many times a failed read is retried at once before the
	// scan counts as failed; 0 means 2, negative means none.
	Retries int
	// FaultAfter is how many scans in a row must fail before the loop
	// reports a fault, and how many in a row must then succeed before it
	// clears it; 0 means 5.
	FaultAfter int
	// Clock is the loop's time; required.
	Clock timing.Clock
	// Wait blocks until Clock reads until or ctx ends (then it returns ctx's
	// error); nil means a real timer, for a timing.Real clock.
	Wait func(ctx context.Context, until time.Duration) error
	// Classify turns an analogue scanner's readings (indexed by square) into
	// occupancy; nil keeps the scanner's own. The calibration package plugs
	// in here.
	Classify func(analog []uint16) board.Occupancy
	// Frame is called with every good scan, on the loop's goroutine; f is
	// reused for the next scan, so Frame must copy what it keeps. Required.
	Frame func(f *Frame)
	// Fault is told when the board becomes untrustworthy (fault true, with
	// the last error) and when it is trusted again; may be nil.
	Fault func(t time.Duration, fault bool, err error)
	// StatsEvery is how often the loop logs its achieved rate and scan cost;
	// 0 means a minute, negative never.
	StatsEvery time.Duration
	// Logger receives retries, faults and statistics; nil discards them.
	Logger *slog.Logger
}

// Stats is what a scan loop has done, for logs and the console.
type Stats struct {
	Scans     uint64        // scans attempted
	Failed    uint64        // scans that failed after every retry
	Retries   uint64        // reads retried
	Late      uint64        // scans that started a period or more late
	Faults    uint64        // faults reported
	Fault     bool          // a fault is standing
	Rate      float64       // scans a second achieved over the last second
	LastCost  time.Duration // time the last scan took, retries included
	MeanCost  time.Duration // mean time a scan takes
	MaxCost   time.Duration // longest scan
	LastError string        // the last read error, if any
}

// String sums the statistics up on one line, for logs.
func (s Stats) String() string {
	return fmt.Sprintf("%.1f scans/s, cost %v mean %v max, %d scans, %d failed, %d retried, %d late",
		s.Rate, s.MeanCost, s.MaxCost, s.Scans, s.Failed, s.Retries, s.Late)
}

// Loop scans a Scanner at a steady rate on an injected clock, retries failed
// reads, and never lets a bad scan through: a failed or implausible scan
// delivers nothing (the last good frame stands), and a run of them raises a
// fault for the LEDs and console.
type Loop struct {
	s      Scanner
	o      LoopOpts
	period time.Duration
	log    *slog.Logger

	mu    sync.Mutex
	stats Stats
	total time.Duration // summed cost, for the mean
}

// NewLoop checks the options.
func NewLoop(s Scanner, o LoopOpts) (*Loop, error) {
	if s == nil {
		return nil, errors.New("sensor: loop: no scanner")
	}
	if o.Clock == nil {
		return nil, errors.New("sensor: loop: no clock")
	}
	if o.Frame == nil {
		return nil, errors.New("sensor: loop: no frame callback")
	}
	if o.Rate == 0 {
		o.Rate = 100
	}
	if !(o.Rate >= 0.1 && o.Rate <= 10000) {
		return nil, fmt.Errorf("sensor: loop: rate %g: expected 0.1 to 10000 scans a second", o.Rate)
	}
	if o.Retries == 0 {
		o.Retries = 2
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.FaultAfter <= 0 {
		o.FaultAfter = 5
	}
	if o.StatsEvery == 0 {
		o.StatsEvery = time.Minute
	}
	if o.Wait == nil {
		o.Wait = timing.Until(o.Clock)
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Loop{s: s, o: o, period: time.Duration(float64(time.Second) / o.Rate), log: log.With("scanner", s.String())}, nil
}

// Period returns the time between scans.
func (l *Loop) Period() time.Duration { return l.period }

// Stats returns what the loop has done so far; safe from any goroutine.
func (l *Loop) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Run scans until ctx ends, then returns nil. Scans start on a fixed grid of
// periods from the first; a scan that overruns its period pushes the grid
// back rather than bursting to catch up.
func (l *Loop) Run(ctx context.Context) error {
	var (
		f           Frame
		next        = l.o.Clock.Now()
		failedRun   int
		goodRun     int
		fault       bool
		windowStart = next
		windowScans int
		lastStats   = next
		lastErr     error
	)
	for {
		if err := l.o.Wait(ctx, next); err != nil || ctx.Err() != nil {
			return nil
		}
		start := l.o.Clock.Now()
		err := l.scan(&f)
		end := l.o.Clock.Now()
		cost := end - start
		f.T = start

		l.mu.Lock()
		l.stats.Scans++
		l.stats.LastCost = cost
		l.total += cost
		l.stats.MeanCost = l.total / time.Duration(l.stats.Scans)
		l.stats.MaxCost = max(l.stats.MaxCost, cost)
		if err != nil {
			l.stats.Failed++
			l.stats.LastError = err.Error()
		}
		l.mu.Unlock()

		if err != nil {
			lastErr = err
			failedRun++
			goodRun = 0
			if failedRun == 1 {
				l.log.Warn("scan failed; the last good frame stands", "err", err)
			}
			if !fault && failedRun >= l.o.FaultAfter {
				fault = true
				l.setFault(start, true, err, failedRun)
			}
		} else {
			if failedRun > 0 {
				l.log.Info("scans good again", "failed", failedRun)
			}
			failedRun = 0
			goodRun++
			if fault && goodRun >= l.o.FaultAfter {
				fault = false
				l.setFault(start, false, nil, goodRun)
			}
			l.o.Frame(&f)
		}

		windowScans++
		if el := end - windowStart; el >= time.Second {
			rate := float64(windowScans) / el.Seconds()
			l.mu.Lock()
			l.stats.Rate = rate
			l.mu.Unlock()
			windowStart, windowScans = end, 0
		}
		if l.o.StatsEvery > 0 && end-lastStats >= l.o.StatsEvery {
			lastStats = end
			st := l.Stats()
			l.log.Info("scan statistics", "rate", fmt.Sprintf("%.1f/s", st.Rate), "target", fmt.Sprintf("%g/s", l.o.Rate),
				"mean_cost", st.MeanCost, "max_cost", st.MaxCost, "scans", st.Scans, "failed", st.Failed,
				"retries", st.Retries, "late", st.Late, "last_error", errString(lastErr))
		}

		next += l.period
		if next+l.period <= end {
			// A period or more behind: skip the missed slots.
			l.mu.Lock()
			l.stats.Late++
			l.mu.Unlock()
			next = end
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (l *Loop) setFault(t time.Duration, fault bool, err error, run int) {
	l.mu.Lock()
	l.stats.Fault = fault
	if fault {
		l.stats.Faults++
	}
	l.mu.Unlock()
	if fault {
		l.log.Error("sensor fault: the board cannot be trusted", "failed_scans", run, "err", err)
	} else {
		l.log.Info("sensor fault cleared", "good_scans", run)
	}
	if l.o.Fault != nil {
		l.o.Fault(t, fault, err)
	}
}

// scan reads once, retrying a failed or implausible read.
func (l *Loop) scan(f *Frame) error {
	var err error
	for attempt := 0; attempt <= l.o.Retries; attempt++ {
		if attempt > 0 {
			l.mu.Lock()
			l.stats.Retries++
			l.mu.Unlock()
			l.log.Debug("retrying scan", "attempt", attempt, "err", err)
		}
		if err = l.s.Scan(f); err != nil {
			continue
		}
		if l.o.Classify != nil && len(f.Analog) == 64 {
			f.Occupancy = l.o.Classify(f.Analog)
		}
		if n := f.Occupancy.Count(); n > MaxMen {
			err = fmt.Errorf("sensor: %s: %d squares read occupied, more than the %d men a board holds: bus fault", l.s, n, MaxMen)
			continue
		}
		return nil
	}
	return err
}
