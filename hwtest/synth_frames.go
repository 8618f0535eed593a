package hwtest

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/trace"
)

// toggle is one raw change of one square in a frame trace.
type toggle struct {
	t   time.Duration
	sq  board.Square
	on  bool
	seq int // order of creation, to keep the sort stable and deterministic
}

// framesOf turns debounced events into raw frames with contact bounce. Each
// event at T becomes a burst ending with the square's final change at
// T - window, so that a debouncer of that window reports the event at T.
// Before the final change the square flips an even number of times (the
// magnet edging over the switch), within maxBounce, one flip a millisecond
// at least.
func framesOf(events []trace.Line, window, maxBounce time.Duration, rng *rand.Rand) ([]trace.Line, error) {
	var out []trace.Line
	initial := board.Start()
	start := initial.Occupancy()
	var toggles []toggle
	var rest []trace.Line
	lastFinal := map[board.Square]time.Duration{}
	for i, l := range events {
		switch l.Kind {
		case trace.Setup:
			if i != 0 {
				return nil, fmt.Errorf("hwtest: frames: setup on line %d", i+1)
			}
			p, err := board.ParseFEN(l.FEN)
			if err != nil {
				return nil, fmt.Errorf("hwtest: frames: %w", err)
			}
			start = p.Occupancy()
			out = append(out, l)
			continue
		case trace.Lift, trace.Place:
		default:
			rest = append(rest, l)
			continue
		}
		on := l.Kind == trace.Place
		final := l.T - window
		flips := 2 * rng.IntN(3) // 0, 2 or 4 flips before the final change
		burst := time.Duration(0)
		if flips > 0 {
			burst = time.Duration(flips+rng.IntN(int(maxBounce/time.Millisecond)-flips+1)) * time.Millisecond
		}
		first := final - burst
		if prev, ok := lastFinal[l.Square]; ok && first <= prev+window {
			return nil, fmt.Errorf("hwtest: frames: %s changes again at %v, before its change at %v has matured", l.Square, l.T, prev+window)
		}
		if first < 0 {
			return nil, fmt.Errorf("hwtest: frames: the change of %s at %v leaves no room for its bounce", l.Square, l.T)
		}
		lastFinal[l.Square] = final
		// Flip times: `flips` distinct milliseconds in [first, final), then final.
		var at []time.Duration
		if flips > 0 {
			span := int(burst / time.Millisecond)
			picked := rng.Perm(span)[:flips]
			sort.Ints(picked)
			for _, ms := range picked {
				at = append(at, first+time.Duration(ms)*time.Millisecond)
			}
			at[0] = first
		}
		state := !on
		for _, t := range at {
			state = !state
			toggles = append(toggles, toggle{t: t, sq: l.Square, on: state, seq: len(toggles)})
		}
		toggles = append(toggles, toggle{t: final, sq: l.Square, on: on, seq: len(toggles)})
	}
	sort.Slice(toggles, func(i, j int) bool {
		if toggles[i].t != toggles[j].t {
			return toggles[i].t < toggles[j].t
		}
		return toggles[i].seq < toggles[j].seq
	})
	occ := start
	var frames []trace.Line
	for i := 0; i < len(toggles); {
		t := toggles[i].t
		for ; i < len(toggles) && toggles[i].t == t; i++ {
			if toggles[i].on {
				occ = occ.With(toggles[i].sq)
			} else {
				occ = occ.Without(toggles[i].sq)
			}
		}
		if n := len(frames); n > 0 && frames[n-1].Occupancy == occ {
			continue
		}
		if len(frames) == 0 && occ == start {
			continue
		}
		frames = append(frames, trace.Line{T: t, Kind: trace.Frame, Occupancy: occ})
	}
	// Merge frames and the other lines by time; at equal times the frame
	// goes first (it was sensed before whatever was pressed in that
	// millisecond matures).
	fi, ri := 0, 0
	for fi < len(frames) || ri < len(rest) {
		if ri == len(rest) || fi < len(frames) && frames[fi].T <= rest[ri].T {
			out = append(out, frames[fi])
			fi++
		} else {
			out = append(out, rest[ri])
			ri++
		}
	}
	return out, nil
}
