package sensor

// The per-square debounce: the first stage of a board's game turns raw
// occupancy frames, as the sensors are scanned, into clean lift and place
// events, one square at a time, so that a Hall switch chattering under a
// sliding magnet never reads as a touch.

import (
	"math/bits"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// DefaultDebounce is how long a square's reading must hold still before a
// change counts. Hall switches under a sliding magnet chatter for a few
// milliseconds; 20 ms outlasts that and stays far below the settle time a
// move needs, so it costs no perceptible latency.
const DefaultDebounce = 20 * time.Millisecond

// Debouncer turns raw occupancy frames into lift and place events, one square
// at a time: a square's change is reported once its raw reading has held the
// new value for Window, stamped with the time it matured. A flicker shorter
// than Window is never reported. The zero value is not usable; use
// NewDebouncer.
type Debouncer struct {
	window    time.Duration
	stable    board.Occupancy // what has been reported
	raw       board.Occupancy // the last raw frame
	changedAt [64]time.Duration
	deadline  time.Duration // earliest maturity among pending squares
}

// NewDebouncer returns a debouncer that starts from the stable occupancy
// initial (the board as it stands) with the given window (DefaultDebounce if
// zero or negative).
func NewDebouncer(initial board.Occupancy, window time.Duration) *Debouncer {
	if window <= 0 {
		window = DefaultDebounce
	}
	return &Debouncer{window: window, stable: initial, raw: initial, deadline: timing.Never}
}

// Window returns the debounce window.
func (d *Debouncer) Window() time.Duration { return d.window }

// Stable returns the debounced occupancy.
func (d *Debouncer) Stable() board.Occupancy { return d.stable }

// Deadline returns when the next pending change matures, or timing.Never.
func (d *Debouncer) Deadline() time.Duration { return d.deadline }

// Frame takes a raw frame at time t and appends any matured events to out.
// An unchanged frame with nothing pending costs one comparison and never
// allocates.
func (d *Debouncer) Frame(t time.Duration, occ board.Occupancy, out []Event) []Event {
	if occ == d.raw && t < d.deadline {
		return out
	}
	if diff := uint64(occ ^ d.raw); diff != 0 {
		for v := diff; v != 0; v &= v - 1 {
			d.changedAt[bits.TrailingZeros64(v)] = t
		}
		d.raw = occ
	}
	return d.Advance(t, out)
}

// Advance reports, in time order, every pending change that has matured by t.
func (d *Debouncer) Advance(t time.Duration, out []Event) []Event {
	pending := uint64(d.raw ^ d.stable)
	d.deadline = timing.Never
	if pending == 0 {
		return out
	}
	// Report matured squares in the order their changes began (lifts first on
	// ties, then by square), so that a replay is deterministic.
	for {
		best := -1
		for v := pending; v != 0; v &= v - 1 {
			sq := bits.TrailingZeros64(v)
			if t-d.changedAt[sq] < d.window {
				continue
			}
			if best < 0 || d.earlier(sq, best) {
				best = sq
			}
		}
		if best < 0 {
			break
		}
		kind := Place
		if !d.raw.Has(board.Square(best)) {
			kind = Lift
		}
		at := d.changedAt[best] + d.window
		out = append(out, Event{T: at, Square: board.Square(best), Kind: kind})
		d.stable ^= 1 << uint(best)
		pending &^= 1 << uint(best)
	}
	for v := pending; v != 0; v &= v - 1 {
		sq := bits.TrailingZeros64(v)
		d.deadline = timing.Earliest(d.deadline, d.changedAt[sq]+d.window)
	}
	return out
}

func (d *Debouncer) earlier(a, b int) bool {
	if d.changedAt[a] != d.changedAt[b] {
		return d.changedAt[a] < d.changedAt[b]
	}
	aLift, bLift := !d.raw.Has(board.Square(a)), !d.raw.Has(board.Square(b))
	if aLift != bLift {
		return aLift
	}
	return a < b
}

// Reset makes occ the stable and raw occupancy, dropping anything pending
// (after a reconnect, say, when the board is re-read from scratch).
func (d *Debouncer) Reset(occ board.Occupancy) {
	d.stable, d.raw, d.deadline = occ, occ, timing.Never
}
