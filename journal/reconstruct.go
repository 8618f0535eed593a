package journal

import (
	"regexp"
	"strconv"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// guessInputs lists the inputs a record damaged beyond repair may have
// been, most likely first, to be tried at index at of records: what is left
// legible of the damaged line (its time, its kind and square), else a lift
// or a placement on each square the reports after it name (the touch, the
// move, the squares to fix) or the inputs beside it name (a man slid
// through a square is lifted from it), or the naming of the promotion
// piece of a move that follows, at the time of the record before the gap or of
// the one after.
func guessInputs(records []Record, at int, damaged []byte) []trace.Line {
	if at <= 0 || at > len(records) {
		return nil
	}
	prev := records[at-1]
	seq := prev.Seq + 1
	if at < len(records) && records[at].Seq != seq+1 {
		return nil // no sequence number free: the damaged line was no record of this game
	}
	// The input came after the record before the gap and before the one
	// after it; a report it made carries its time, a move its time and the
	// settle time the hands are given.
	settle := game.DefaultSettle
	if h := records[0].Header; h != nil && h.Settle > 0 {
		settle = h.Settle
	}
	times := []time.Duration{prev.T}
	addTime := func(t time.Duration) {
		if t < prev.T || at < len(records) && t > records[at].T {
			return
		}
		for _, have := range times {
			if have == t {
				return
			}
		}
		times = append(times, t)
	}
	for _, r := range records[at:min(at+3, len(records))] {
		addTime(r.T)
		if r.Kind == KindReport && r.Report.Type == report.Move {
			addTime(r.T - settle)
		}
	}
	if m := legibleTime.FindSubmatch(damaged); m != nil {
		if ms, err := strconv.ParseFloat(string(m[1]), 64); err == nil && ms >= 0 && ms <= float64(trace.MaxT/time.Millisecond) {
			if t := fromMS(ms); t >= prev.T && (at == len(records) || t <= records[at].T) {
				times = append([]time.Duration{t}, times...) // tried first
			}
		}
	}
	var out []trace.Line
	seen := map[trace.Line]bool{}
	add := func(l trace.Line) {
		l.Seq = seq
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	// What is left of the line.
	if m := legibleEvent.FindSubmatch(damaged); m != nil {
		if sq, err := board.ParseSquare(string(m[2])); err == nil {
			kind := trace.Lift
			if string(m[1]) == "place" {
				kind = trace.Place
			}
			for _, t := range times {
				add(trace.Line{T: t, Kind: kind, Square: sq})
			}
		}
	}
	// The squares the reports after the gap name.
	var squares []board.Square
	addSquare := func(name string) {
		if sq, err := board.ParseSquare(name); err == nil {
			for _, s := range squares {
				if s == sq {
					return
				}
			}
			squares = append(squares, sq)
		}
	}
	// The squares of the inputs on either side of the gap: a man slid
	// through squares is set down in passing and lifted again, and the
	// lift from a square in passing is named by no report, only by the
	// placement before it.
	for _, r := range records[max(at-2, 1):min(at+2, len(records))] {
		if r.Kind == KindInput && (r.Input.Kind == trace.Lift || r.Input.Kind == trace.Place) {
			addSquare(r.Input.Square.String())
		}
	}
	var promotions []trace.Line
	reports := 0
	for _, r := range records[at:] {
		if r.Kind != KindReport {
			continue
		}
		rep := r.Report
		switch rep.Type {
		case report.Touch, report.Adjust:
			addSquare(rep.Square)
		case report.Move:
			if m, err := board.ParseUCI(rep.UCI); err == nil {
				addSquare(m.From.String())
				addSquare(m.To.String())
				if m.From.File() == 4 && (m.To.File() == 2 || m.To.File() == 6) {
					rf, rt := board.CastlingRook(m.From, m.To)
					addSquare(rf.String())
					addSquare(rt.String())
				}
				addSquare(board.EnPassantVictim(m).String())
				if m.Promo != board.NoKind && (rep.Side == "white" || rep.Side == "black") {
					// The piece may have been named before the pawn
					// was set down.
					promotions = append(promotions, trace.Line{Kind: trace.Promote, Piece: m.Promo, Side: rep.Side})
				}
			}
		case report.Mismatch:
			for _, n := range rep.Missing {
				addSquare(n)
			}
			for _, n := range rep.Extra {
				addSquare(n)
			}
		}
		if reports++; reports == 4 {
			break
		}
	}
	for _, pr := range promotions {
		for _, t := range times {
			pr.T = t
			add(pr)
		}
	}
	for _, sq := range squares {
		for _, t := range times {
			add(trace.Line{T: t, Kind: trace.Lift, Square: sq})
			add(trace.Line{T: t, Kind: trace.Place, Square: sq})
		}
	}
	return out
}

var (
	legibleTime  = regexp.MustCompile(`"t":([0-9]+(?:\.[0-9]+)?)[,}]`)
	legibleEvent = regexp.MustCompile(`"(lift|place)":"([a-h][1-8])"`)
)
