package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/jsonstring"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// Version is the journal format version written in every header.
const Version = 1

// Kind is the kind of a journal record.
type Kind uint8

// The kinds of journal record.
const (
	// KindHeader opens a game's journal: the game number, the law-set and
	// every option the replay needs. Its key is "journal".
	KindHeader Kind = iota + 1
	// KindInput is an input in trace format v1 (lift, place, frame, press,
	// choose, promote, arbiter).
	KindInput
	// KindReport is what boardd decided, as `boardd replay` prints it. Its
	// key is "type".
	KindReport
	// KindTag sets a PGN tag learnt during the game (the date, once the
	// clock is synchronised). Its key is "tag".
	KindTag
	// KindComment notes a comment at a move of the game (an engine's
	// evaluation of its move): its key is "comment", with "ply", the
	// move's index from 0.
	KindComment
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindHeader:
		return "header"
	case KindInput:
		return "input"
	case KindReport:
		return "report"
	case KindTag:
		return "tag"
	case KindComment:
		return "comment"
	}
	return "unknown"
}

// Header opens a game's journal and holds everything needed to replay it:
// the journal replays with these options, not with whatever the daemon is
// configured with now, so a game keeps its law-set across a restart.
type Header struct {
	Game  uint64 // the game's number in this state directory, from 1
	Laws  string // law-set id
	Setup string // FEN the game started from; empty for the initial position
	Odds  string // men given as odds (game.Options.Odds)
	// TimeControl sets the game clocks (game.Options.TimeControl);
	// ClockAtFirstInput starts the first mover's clock at the first input.
	TimeControl       string
	ClockAtFirstInput bool
	Tournament        bool // every penalty exacted by the arbiter
	WarnOnly          bool // irregularities shown, penalties not exacted
	// Remote names the sides played from off the board from the start (a
	// game against an engine): trace.SideWhite, SideBlack or SideBoth; ""
	// for none. A remote line in the journal changes it during the game.
	Remote string
	// VisuallyImpaired is the side whose player is visually impaired
	// (game.Options.VisuallyImpaired): "white", "black" or "".
	VisuallyImpaired string
	Tags             map[string]string // PGN tags (Date is "????.??.??" until the clock is synchronised)
	Started          time.Time         // wall-clock start of the game; zero when the clock was not synchronised
	Physical         *board.Occupancy  // what the board read at the start, when not the start position
	Debounce         time.Duration     // sensor debounce window (zero: the default)
	Settle           time.Duration     // gesture options (zero: the defaults)
	QuickSettle      time.Duration     // negative: Settle
	OpenWait         time.Duration
	Jadoube          time.Duration
	Bump             time.Duration
}

// NewHeader returns the header of game number game played with opts.
func NewHeader(game uint64, opts game.Options, started time.Time) Header {
	h := Header{
		Game: game, Laws: opts.Laws, Setup: opts.Setup, Odds: opts.Odds,
		TimeControl: opts.TimeControl, ClockAtFirstInput: opts.ClockAtFirstInput, Tournament: opts.Tournament, WarnOnly: opts.WarnOnly,
		Tags: map[string]string{}, Started: started, Debounce: opts.Timing.Debounce,
		Settle: opts.Timing.Settle, QuickSettle: opts.Timing.QuickSettle, OpenWait: opts.Timing.OpenWait,
		Jadoube: opts.Timing.Jadoube, Bump: opts.Timing.Bump, Remote: RemoteSides(opts.Remote),
		VisuallyImpaired: opts.VisuallyImpaired,
	}
	for k, v := range opts.Tags {
		h.Tags[k] = v
	}
	if opts.Physical != nil {
		occ := *opts.Physical
		h.Physical = &occ
	}
	return h
}

// SameRules reports whether a game begun with opts would be played under the
// same rules as the header's: law-set, start, odds, time control, tournament
// mode, warn-only, the visually impaired side.
func (h Header) SameRules(opts game.Options) bool {
	return h.Laws == opts.Laws && h.Setup == opts.Setup && h.Odds == opts.Odds && h.TimeControl == opts.TimeControl &&
		h.ClockAtFirstInput == opts.ClockAtFirstInput && h.Tournament == opts.Tournament && h.WarnOnly == opts.WarnOnly && h.VisuallyImpaired == opts.VisuallyImpaired
}

// Options returns the options of the game: base (the logger and
// anything the header does not hold) with the header's settings over it. The
// tags are a copy.
func (h Header) Options(base game.Options) game.Options {
	o := base
	o.Laws, o.Setup, o.Odds, o.Tournament, o.WarnOnly = h.Laws, h.Setup, h.Odds, h.Tournament, h.WarnOnly
	o.VisuallyImpaired = h.VisuallyImpaired
	o.TimeControl, o.ClockAtFirstInput = h.TimeControl, h.ClockAtFirstInput
	o.Timing.Debounce = h.Debounce
	o.Timing.Settle, o.Timing.OpenWait, o.Timing.Jadoube = h.Settle, h.OpenWait, h.Jadoube
	o.Timing.QuickSettle, o.Timing.Bump = h.QuickSettle, h.Bump
	o.Remote = [2]bool{h.Remote == trace.SideWhite || h.Remote == trace.SideBoth, h.Remote == trace.SideBlack || h.Remote == trace.SideBoth}
	o.Tags = make(map[string]string, len(h.Tags))
	for k, v := range h.Tags {
		o.Tags[k] = v
	}
	o.Physical = nil
	if h.Physical != nil {
		occ := *h.Physical
		o.Physical = &occ
	}
	return o
}

// RemoteSides names the sides played from off the board, as a header and
// a trace's remote line name them: "white", "black", "both", or "" for none.
func RemoteSides(remote [2]bool) string {
	switch {
	case remote[board.White] && remote[board.Black]:
		return trace.SideBoth
	case remote[board.White]:
		return trace.SideWhite
	case remote[board.Black]:
		return trace.SideBlack
	}
	return ""
}

// Record is one line of a journal.
type Record struct {
	Seq    uint64        // the journal's sequence number, increasing across restarts and games
	T      time.Duration // the game time of the line
	Kind   Kind          // which of the fields below is meaningful
	Header *Header       // KindHeader
	Input  trace.Line    // KindInput (Input.Seq == Seq, Input.T == T)
	Report report.Report // KindReport
	Tag    string        // KindTag: the PGN tag
	Value  string        // KindTag: its value; KindComment: the comment
	Ply    int           // KindComment: the move's index, from 0
	Raw    []byte        // the record's JSON object as stored, without its checksum or newline
}

// headerWire is the JSON shape of a header after "t" and "seq".
type headerWire struct {
	Journal    int               `json:"journal"`
	Game       uint64            `json:"game"`
	Laws       string            `json:"laws"`
	Setup      string            `json:"fen,omitempty"`
	Odds       string            `json:"odds,omitempty"`
	Control    string            `json:"time_control,omitempty"`
	AtFirst    bool              `json:"clock_at_first_input,omitempty"`
	Tournament bool              `json:"tournament,omitempty"`
	WarnOnly   bool              `json:"warn_only,omitempty"`
	Remote     string            `json:"remote,omitempty"`
	Blind      string            `json:"visually_impaired,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
	Started    string            `json:"started,omitempty"`
	Physical   string            `json:"physical,omitempty"`
	Debounce   float64           `json:"debounce_ms,omitempty"`
	Settle     float64           `json:"settle_ms,omitempty"`
	Quick      float64           `json:"quick_settle_ms,omitempty"`
	OpenWait   float64           `json:"open_wait_ms,omitempty"`
	Jadoube    float64           `json:"jadoube_ms,omitempty"`
	Bump       float64           `json:"bump_ms,omitempty"`
}

// probe finds which kind of record a line is.
type probe struct {
	T       *float64 `json:"t"`
	Seq     *uint64  `json:"seq"`
	Journal *int     `json:"journal"`
	Type    *string  `json:"type"`
	Tag     *string  `json:"tag"`
	Value   string   `json:"value"`
	Comment *string  `json:"comment"`
	Ply     *int     `json:"ply"`
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fromMS(v float64) time.Duration { return time.Duration(math.Round(v * float64(time.Millisecond))) }

// appendPrefix writes `{"t":T,"seq":S` onto dst.
func appendPrefix(dst []byte, t time.Duration, seq uint64) []byte {
	dst = append(dst, `{"t":`...)
	dst = strconv.AppendFloat(dst, ms(t), 'f', -1, 64)
	dst = append(dst, `,"seq":`...)
	return strconv.AppendUint(dst, seq, 10)
}

// AppendHeader writes h as a journal line (with its newline) onto dst.
func AppendHeader(dst []byte, t time.Duration, seq uint64, h Header) ([]byte, error) {
	w := headerWire{
		Journal: Version, Game: h.Game, Laws: h.Laws, Setup: h.Setup, Odds: h.Odds,
		Control: h.TimeControl, AtFirst: h.ClockAtFirstInput, Tournament: h.Tournament, WarnOnly: h.WarnOnly, Remote: h.Remote, Blind: h.VisuallyImpaired,
		Tags: h.Tags, Debounce: ms(h.Debounce), Settle: ms(h.Settle), Quick: ms(h.QuickSettle), OpenWait: ms(h.OpenWait), Jadoube: ms(h.Jadoube), Bump: ms(h.Bump),
	}
	if !h.Started.IsZero() {
		w.Started = h.Started.UTC().Format(time.RFC3339)
	}
	if h.Physical != nil {
		w.Physical = h.Physical.Hex()
	}
	body, err := json.Marshal(w)
	if err != nil {
		return dst, fmt.Errorf("journal: header: %w", err)
	}
	start := len(dst)
	dst = appendPrefix(dst, t, seq)
	dst = append(dst, ',')
	dst = append(dst, body[1:]...)
	return seal(append(dst, '\n'), start), nil
}

// AppendReport writes r as a journal line (with its newline) onto dst.
func AppendReport(dst []byte, seq uint64, r *report.Report) []byte {
	begin := len(dst)
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, ',')
	start := len(dst)
	dst = r.AppendJSON(dst)
	// AppendJSON opens the object itself: drop its brace.
	copy(dst[start:], dst[start+1:])
	dst = dst[:len(dst)-1]
	return seal(append(dst, '\n'), begin)
}

// AppendInput writes l as a journal line (trace format v1, with its
// newline) onto dst, numbered seq.
func AppendInput(dst []byte, seq uint64, l trace.Line) []byte {
	l.Seq = seq
	start := len(dst)
	return seal(trace.Append(dst, l), start)
}

// AppendTag writes a tag record (with its newline) onto dst.
func AppendTag(dst []byte, t time.Duration, seq uint64, tag, value string) []byte {
	start := len(dst)
	dst = appendPrefix(dst, t, seq)
	dst = append(dst, `,"tag":`...)
	dst = jsonstring.Append(dst, tag)
	dst = append(dst, `,"value":`...)
	dst = jsonstring.Append(dst, value)
	return seal(append(dst, '}', '\n'), start)
}

// AppendComment writes a comment record (with its newline) onto dst.
func AppendComment(dst []byte, t time.Duration, seq uint64, ply int, comment string) []byte {
	start := len(dst)
	dst = appendPrefix(dst, t, seq)
	dst = append(dst, `,"comment":`...)
	dst = jsonstring.Append(dst, comment)
	dst = append(dst, `,"ply":`...)
	dst = strconv.AppendInt(dst, int64(ply), 10)
	return seal(append(dst, '}', '\n'), start)
}

// ParseRecord reads one journal line (without its newline). A line that
// ends in a checksum must match it; a line without one (written by a boardd
// from before checksums) is read as it is. Record.Raw is the record without
// its checksum.
func ParseRecord(line []byte) (Record, error) {
	line = bytes.TrimSpace(line)
	if body, sum, ok := unseal(line); ok {
		if checksum(body) != sum {
			return Record{}, fmt.Errorf("checksum mismatch: the line was damaged")
		}
		line = record(body)
	}
	return parseRecord(line)
}

// parseRecord reads a record's JSON object.
func parseRecord(line []byte) (Record, error) {
	var p probe
	if err := json.Unmarshal(line, &p); err != nil {
		return Record{}, trace.DecodeFault(err)
	}
	if p.Seq == nil || *p.Seq == 0 {
		return Record{}, fmt.Errorf(`missing "seq" (the journal's sequence number)`)
	}
	if p.T == nil {
		return Record{}, fmt.Errorf(`missing "t"`)
	}
	if *p.T < 0 || math.IsNaN(*p.T) || *p.T > float64(trace.MaxT/time.Millisecond) {
		return Record{}, fmt.Errorf(`"t" %v is not a time in milliseconds`, *p.T)
	}
	r := Record{Seq: *p.Seq, T: fromMS(*p.T), Raw: line}
	keys := 0
	for _, present := range []bool{p.Journal != nil, p.Type != nil, p.Tag != nil, p.Comment != nil} {
		if present {
			keys++
		}
	}
	if keys > 1 {
		return Record{}, fmt.Errorf(`more than one of "journal", "type", "tag" and "comment" on the line`)
	}
	switch {
	case p.Journal != nil:
		if *p.Journal != Version {
			return Record{}, fmt.Errorf("journal version %d: this boardd reads version %d", *p.Journal, Version)
		}
		var w headerWire
		if err := json.Unmarshal(line, &w); err != nil {
			return Record{}, fmt.Errorf("header: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		h := &Header{
			Game: w.Game, Laws: w.Laws, Setup: w.Setup, Odds: w.Odds,
			TimeControl: w.Control, ClockAtFirstInput: w.AtFirst, Tournament: w.Tournament, WarnOnly: w.WarnOnly, Remote: w.Remote, VisuallyImpaired: w.Blind, Tags: w.Tags,
			Debounce: fromMS(w.Debounce), Settle: fromMS(w.Settle), QuickSettle: fromMS(w.Quick), OpenWait: fromMS(w.OpenWait), Jadoube: fromMS(w.Jadoube),
			Bump: fromMS(w.Bump),
		}
		if h.Tags == nil {
			h.Tags = map[string]string{}
		}
		if w.Laws == "" {
			return Record{}, fmt.Errorf("header: no law-set")
		}
		switch w.Remote {
		case "", trace.SideWhite, trace.SideBlack, trace.SideBoth:
		default:
			return Record{}, fmt.Errorf("header: remote %q: want white, black, both or none", w.Remote)
		}
		if w.Setup != "" {
			if _, err := board.ParseFEN(w.Setup); err != nil {
				return Record{}, fmt.Errorf("header: fen: %v", err)
			}
		}
		if w.Started != "" {
			st, err := time.Parse(time.RFC3339, w.Started)
			if err != nil {
				return Record{}, fmt.Errorf("header: started %q: want an RFC 3339 time", w.Started)
			}
			h.Started = st
		}
		if w.Physical != "" {
			u, err := strconv.ParseUint(w.Physical, 16, 64)
			if err != nil || len(w.Physical) != 16 {
				return Record{}, fmt.Errorf("header: physical %q: want 16 hex digits", w.Physical)
			}
			occ := board.Occupancy(u)
			h.Physical = &occ
		}
		r.Kind, r.Header = KindHeader, h
	case p.Type != nil:
		rep, err := report.Parse(line)
		if err != nil {
			return Record{}, err
		}
		rep.T = r.T
		r.Kind, r.Report = KindReport, rep
	case p.Tag != nil:
		if *p.Tag == "" {
			return Record{}, fmt.Errorf("tag: empty name")
		}
		r.Kind, r.Tag, r.Value = KindTag, *p.Tag, p.Value
	case p.Comment != nil:
		if p.Ply == nil || *p.Ply < 0 {
			return Record{}, fmt.Errorf(`comment: want "ply", the move's index from 0`)
		}
		r.Kind, r.Value, r.Ply = KindComment, *p.Comment, *p.Ply
	default:
		l, err := trace.Parse(line)
		if err != nil {
			return Record{}, err
		}
		if l.Kind == trace.Setup {
			return Record{}, fmt.Errorf("setup belongs in the header, not among the inputs")
		}
		r.Kind, r.Input = KindInput, l
	}
	return r, nil
}
