package calibration

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/boardd/boardd/board"
)

// Progress is a calibration in the making: what the wizard has observed so
// far. It is saved after every square, so that an interrupted wizard resumes
// where it stopped.
type Progress struct {
	Version  int       `json:"version"`
	Identity Identity  `json:"identity"`
	LEDs     int       `json:"leds"`
	Baseline *Baseline `json:"baseline,omitempty"`
	// White holds, square by square from a1, what the sensors did under a
	// White man placed on the named square.
	White []Observation `json:"white"`
	// Black holds, LED by LED along the chain, what they did under a Black
	// man placed on the lit square (square by square on a board without
	// LEDs).
	Black []Observation `json:"black"`
	// Extra holds Black men asked for by name on the squares the LED walk
	// could not reach (see extraSquares), in that order.
	Extra []Observation `json:"extra,omitempty"`
}

// assign matches items to candidates by elimination: an item with a single
// candidate not yet taken gets it; when none is left with a single one, the
// item with the fewest takes its strongest (and is reported as ambiguous).
// cands[i] lists item i's candidates, strongest first.
func assign(cands [][]int) (out []int, ambiguous []int) {
	out = make([]int, len(cands))
	for i := range out {
		out[i] = -1
	}
	taken := make(map[int]bool)
	live := func(i int) []int {
		var l []int
		for _, c := range cands[i] {
			if !taken[c] {
				l = append(l, c)
			}
		}
		return l
	}
	for {
		progress := false
		for i := range cands {
			if out[i] < 0 {
				if l := live(i); len(l) == 1 {
					out[i], taken[l[0]], progress = l[0], true, true
				}
			}
		}
		if progress {
			continue
		}
		best, bestN := -1, 0
		for i := range cands {
			if out[i] < 0 {
				if n := len(live(i)); n > 0 && (best < 0 || n < bestN) {
					best, bestN = i, n
				}
			}
		}
		if best < 0 {
			return out, ambiguous
		}
		c := live(best)[0]
		out[best], taken[c] = c, true
		ambiguous = append(ambiguous, best)
	}
}

// complete fills the unknown entries of idx (square -> position, -1
// unknown) with positions from 0 to n-1 nobody has: from a regular layout
// when the known ones follow one, else by elimination when one square and
// one position are left. It returns the squares filled and how.
func complete(idx *[64]int, n int) (filled []board.Square, how string) {
	used := make(map[int]bool)
	var missing []board.Square
	for sq, p := range idx {
		if p >= 0 {
			used[p] = true
		} else {
			missing = append(missing, board.Square(sq))
		}
	}
	if len(missing) == 0 {
		return nil, ""
	}
	if n == 64 {
		if l, ok := matchLayout(idx); ok {
			for p, sq := range l.order {
				if idx[sq] < 0 && !used[p] {
					idx[sq] = p
					filled = append(filled, sq)
				}
			}
			return filled, "by the regular wiring of the others (" + l.name + ")"
		}
	}
	var free []int
	for p := range n {
		if !used[p] {
			free = append(free, p)
		}
	}
	if len(missing) == 1 && len(free) == 1 {
		idx[missing[0]] = free[0]
		return missing, "by elimination (the only one left)"
	}
	return nil, ""
}

// extraSquares lists the squares with a working sensor that the LED walk
// left without a Black level: they are asked for by name.
func extraSquares(p *Progress) []board.Square {
	if p.LEDs == 0 || len(p.Black) < p.LEDs {
		return nil
	}
	ch, _ := resolveSensors(p)
	leds, _ := resolveLEDs(p, &ch)
	var out []board.Square
	for sq := range 64 {
		if ch[sq] < 0 || !p.White[sq].Answered {
			continue
		}
		if leds[sq] < 0 || responseOf(p.Black[leds[sq]], ch[sq]) == nil {
			out = append(out, board.Square(sq))
		}
	}
	return out
}

func responseOf(o Observation, channel int) *Response {
	for i := range o.Responses {
		if o.Responses[i].Channel == channel {
			return &o.Responses[i]
		}
	}
	return nil
}

// resolveSensors learns which channel is which square from the White walk.
func resolveSensors(p *Progress) (ch [64]int, ambiguous []int) {
	cands := make([][]int, 64)
	for sq := range 64 {
		if sq < len(p.White) {
			for _, r := range p.White[sq].Responses {
				cands[sq] = append(cands[sq], r.Channel)
			}
		}
	}
	out, amb := assign(cands)
	copy(ch[:], out)
	return ch, amb
}

// resolveLEDs learns which LED is which square from the Black walk.
func resolveLEDs(p *Progress, ch *[64]int) (leds [64]int, ambiguous []int) {
	for i := range leds {
		leds[i] = -1
	}
	if p.LEDs == 0 {
		return leds, nil
	}
	sqOf := make(map[int]int)
	for sq, c := range ch {
		if c >= 0 {
			sqOf[c] = sq
		}
	}
	cands := make([][]int, p.LEDs)
	for k := range cands {
		if k >= len(p.Black) {
			continue
		}
		for _, r := range p.Black[k].Responses {
			if sq, ok := sqOf[r.Channel]; ok && !slices.Contains(cands[k], sq) {
				cands[k] = append(cands[k], sq)
			}
		}
	}
	out, amb := assign(cands)
	for k, sq := range out {
		if sq >= 0 {
			leds[sq] = k
		}
	}
	return leds, amb
}

// Build turns a finished walk into a calibration and a summary of what is
// weak or suspicious.
func Build(p *Progress) (*Calibration, *Report, error) {
	if p.Baseline == nil || len(p.Baseline.Mean) != p.Identity.Channels || len(p.Baseline.Noise) != p.Identity.Channels {
		return nil, nil, fmt.Errorf("calibration: the empty board was not measured")
	}
	if len(p.White) != 64 || len(p.Black) != p.blackSteps() {
		return nil, nil, fmt.Errorf("calibration: the walk is not finished (%d white, %d black)", len(p.White), len(p.Black))
	}
	rep := &Report{Hardware: p.Identity.String()}
	c := &Calibration{Identity: p.Identity, LEDs: p.LEDs, On: DefaultOn, Off: DefaultOff}

	ch, amb := resolveSensors(p)
	for _, sq := range amb {
		rep.add(Wiring, Warning, fmt.Sprintf("more than one sensor answered; took channel %d", ch[sq]), board.Square(sq))
	}
	answered := ch
	if filled, how := complete(&ch, p.Identity.Channels); len(filled) > 0 {
		for _, sq := range filled {
			rep.add(Wiring, Warning, fmt.Sprintf("channel %d given %s", ch[sq], how), sq)
		}
	}
	leds, lamb := resolveLEDs(p, &ch)
	for _, k := range lamb {
		for sq, l := range leds {
			if l == k {
				rep.add(Wiring, Warning, fmt.Sprintf("a man on the lit square moved more than one sensor; took LED %d", k), board.Square(sq))
			}
		}
	}
	if p.LEDs > 0 {
		if filled, how := complete(&leds, p.LEDs); len(filled) > 0 {
			for _, sq := range filled {
				rep.add(Wiring, Warning, fmt.Sprintf("LED %d given %s: nobody saw it answer (dead LED or dead sensor?)", leds[sq], how), sq)
			}
		}
	}
	extra := extraSquares(p)

	var noises []float64
	for sq := range 64 {
		s := &c.Squares[sq]
		s.Square = board.Square(sq).String()
		s.Channel, s.LED = ch[sq], leds[sq]
		if s.Channel < 0 {
			s.flag(FlagDead)
			continue
		}
		s.Empty = Level{Mean: round2(p.Baseline.Mean[s.Channel]), Noise: round2(p.Baseline.Noise[s.Channel])}
		noises = append(noises, s.Empty.Noise)
		if answered[sq] < 0 {
			s.flag(FlagDead)
		}
		if r := responseOf(p.White[sq], s.Channel); r != nil {
			s.White = s.level(r)
		}
		var black *Response
		switch {
		case p.LEDs == 0:
			black = responseOf(p.Black[sq], s.Channel)
		case s.LED >= 0:
			black = responseOf(p.Black[s.LED], s.Channel)
		}
		if black == nil {
			if i := slices.Index(extra, board.Square(sq)); i >= 0 && i < len(p.Extra) {
				black = responseOf(p.Extra[i], s.Channel)
			}
		}
		if black != nil {
			s.Black = s.level(black)
		}
		if p.LEDs > 0 && s.LED < 0 {
			s.flag(FlagNoLED)
		}
	}

	// Crosstalk: a channel answering a man on a square not its own.
	owner := make(map[int]board.Square)
	for sq, cc := range ch {
		if cc >= 0 {
			owner[cc] = board.Square(sq)
		}
	}
	seen := make(map[[2]board.Square]bool)
	cross := func(on board.Square, o Observation) {
		for _, r := range o.Responses {
			y, ok := owner[r.Channel]
			if !ok || y == on || seen[[2]board.Square{y, on}] {
				continue
			}
			seen[[2]board.Square{y, on}] = true
			c.Squares[y].flag(FlagCrosstalk)
			rep.add(Crosstalk, Fault, fmt.Sprintf("%s's sensor (channel %d) also reads a man on %s: crossed or shorted wires", y, r.Channel, on), y, on)
		}
	}
	for sq := range 64 {
		cross(board.Square(sq), p.White[sq])
	}
	for k, o := range p.Black {
		if p.LEDs == 0 {
			cross(board.Square(k), o)
			continue
		}
		for sq, l := range leds {
			if l == k {
				cross(board.Square(sq), o)
			}
		}
	}

	// Polarity: do White and Black read on opposite sides?
	opposite, same := 0, 0
	for sq := range c.Squares {
		s := &c.Squares[sq]
		if s.White == nil || s.Black == nil {
			continue
		}
		if (s.White.Mean-s.Empty.Mean)*(s.Black.Mean-s.Empty.Mean) < 0 {
			opposite++
		} else {
			same++
		}
	}
	c.Polarity = Single
	if opposite > same {
		c.Polarity = Dual
		for sq := range c.Squares {
			s := &c.Squares[sq]
			if s.White != nil && s.Black != nil && (s.White.Mean-s.Empty.Mean)*(s.Black.Mean-s.Empty.Mean) >= 0 {
				s.flag(FlagPolarity)
				rep.add(MixedPolarity, Warning, "White and Black men read the same way here: a man with its magnet reversed?", board.Square(sq))
			}
		}
	}

	median := 0.0
	if len(noises) > 0 {
		sort.Float64s(noises)
		median = noises[len(noises)/2]
	}
	for sq := range c.Squares {
		s := &c.Squares[sq]
		name := board.Square(sq)
		flat := s.Channel >= 0 && !p.Identity.Digital && s.Empty.Noise == 0
		if flat {
			s.flag(FlagFlat)
		}
		if s.Has(FlagDead) {
			why := "no sensor answered a man here"
			if s.Channel >= 0 {
				why += fmt.Sprintf("; channel %d is the one left over", s.Channel)
			}
			if flat {
				why += fmt.Sprintf(", and it reads a flat %.0f with no noise: a dead or disconnected sensor", s.Empty.Mean)
			}
			rep.add(StuckOff, Fault, why, name)
			continue
		}
		if flat {
			rep.add(StuckOff, Fault, fmt.Sprintf("channel %d reads a flat %.0f with no noise: a disconnected input", s.Channel, s.Empty.Mean), name)
		}
		if s.Empty.Noise > 3*median && s.Empty.Noise > 2 {
			s.flag(FlagNoisy)
			rep.add(Noisy, Warning, fmt.Sprintf("noise %.1f counts, the board's median is %.1f", s.Empty.Noise, median), name)
		}
		th := c.thresholds(s)
		gap := math.Min(th.gapUp, th.gapDown)
		noise := s.Empty.Noise
		for _, l := range []*Level{s.White, s.Black} {
			if l != nil {
				noise = math.Max(noise, l.Noise)
			}
		}
		if !p.Identity.Digital {
			noise = math.Max(noise, 1)
		}
		if !math.IsInf(gap, 0) && gap < 12*noise {
			s.flag(FlagWeak)
			rep.add(Weak, Warning, fmt.Sprintf("a man moves the reading %.0f counts against noise %.1f: may be missed", gap, noise), name)
		}
		if s.Has(FlagNoLED) {
			rep.add(NoLED, Warning, "no LED answered for this square", name)
		}
	}
	rep.sort()
	if err := c.validate(); err != nil {
		return nil, nil, err
	}
	return c, rep, nil
}

// level returns the level a response shows, moved by the drift of the
// channel's empty level between the response and the end of the walk.
func (s *Square) level(r *Response) *Level {
	return &Level{Mean: round2(s.Empty.Mean + r.Level.Mean - r.Base), Noise: round2(r.Level.Noise)}
}

// round2 rounds to hundredths of a count: the file stays readable and loses
// nothing that matters.
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// blackSteps is the length of the Black walk: one step per LED, or per
// square on a board without LEDs.
func (p *Progress) blackSteps() int {
	if p.LEDs > 0 {
		return p.LEDs
	}
	return 64
}

// Notes describes the learned wiring and polarity in words.
func (c *Calibration) Notes() []string {
	var ch, leds [64]int
	for sq := range c.Squares {
		ch[sq], leds[sq] = c.Squares[sq].Channel, c.Squares[sq].LED
	}
	notes := []string{"sensors: " + describeOrder(&ch, "channel")}
	if c.LEDs > 0 {
		notes = append(notes, "LEDs: "+describeOrder(&leds, "LED"))
	}
	if c.Polarity == Dual {
		notes = append(notes, "polarity: White and Black men read on opposite sides: boardd reads each man's colour")
	} else {
		notes = append(notes, "polarity: every man reads the same way: boardd reads occupancy only")
	}
	return notes
}
