package calibration

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/boardd/boardd/board"
)

// Severity says whether a finding makes the board unfit for play.
type Severity uint8

// The two severities.
const (
	Warning Severity = iota // worth knowing; the board can still be trusted
	Fault                   // the board cannot be trusted for play
)

func (s Severity) String() string {
	if s == Fault {
		return "FAULT"
	}
	return "warn"
}

// Kind names what a finding is about.
type Kind string

// Finding kinds.
const (
	StuckOn       Kind = "stuck-on"  // reads a man on an empty square
	StuckOff      Kind = "stuck-off" // never answers a man (dead sensor, broken wire)
	Crosstalk     Kind = "crosstalk" // a sensor also reads a man on another square
	Crossed       Kind = "crossed"   // a man on one square is read on another instead
	Noisy         Kind = "noisy"     // the reading is noisy enough to flicker
	Drifted       Kind = "drift"     // the empty level moved since calibration
	Weak          Kind = "weak"      // the man's signal is small against the noise
	DeadLED       Kind = "dead-led"  // the square's LED stays dark
	NoLED         Kind = "no-led"    // no LED is known for the square
	MixedPolarity Kind = "polarity"  // the colours do not read on opposite sides
	Wiring        Kind = "wiring"    // the wiring map was completed by elimination
)

// Finding is one thing the wizard or self-test found, naming its squares.
type Finding struct {
	Kind     Kind
	Severity Severity
	// Squares are the squares concerned: for crosstalk and crossed wires,
	// the square read first and the square the man stood on second.
	Squares []board.Square
	Text    string
}

func (f Finding) names() string {
	names := make([]string, len(f.Squares))
	for i, sq := range f.Squares {
		names[i] = sq.String()
	}
	return strings.Join(names, " ")
}

// Report is the outcome of a self-test or the wizard's summary.
type Report struct {
	// Hardware describes the board tested.
	Hardware string
	Findings []Finding
}

func (r *Report) add(kind Kind, sev Severity, text string, squares ...board.Square) {
	r.Findings = append(r.Findings, Finding{Kind: kind, Severity: sev, Squares: squares, Text: text})
}

// has reports whether a finding of kind names square sq.
func (r *Report) has(kind Kind, sq board.Square) bool {
	for _, f := range r.Findings {
		if f.Kind == kind {
			for _, s := range f.Squares {
				if s == sq {
					return true
				}
			}
		}
	}
	return false
}

// Fit reports whether no finding is a fault.
func (r *Report) Fit() bool {
	for _, f := range r.Findings {
		if f.Severity == Fault {
			return false
		}
	}
	return true
}

// Squares returns the squares named by findings of severity sev or worse.
func (r *Report) Squares(sev Severity) board.Occupancy {
	var o board.Occupancy
	for _, f := range r.Findings {
		if f.Severity >= sev {
			for _, sq := range f.Squares {
				o = o.With(sq)
			}
		}
	}
	return o
}

// Of returns the findings of kind k.
func (r *Report) Of(k Kind) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Kind == k {
			out = append(out, f)
		}
	}
	return out
}

func (r *Report) sort() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		return a.Kind < b.Kind
	})
}

// Write prints the findings, one a line, faults first.
func (r *Report) Write(w io.Writer) {
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "  no findings: every square answered as it should")
		return
	}
	for _, f := range r.Findings {
		fmt.Fprintf(w, "  %-5s  %-9s  %-6s  %s\n", f.Severity, f.Kind, f.names(), f.Text)
	}
}

// WriteVerdict prints the report and the verdict: fit or unfit for play.
func (r *Report) WriteVerdict(w io.Writer) {
	r.Write(w)
	if r.Fit() {
		warn := ""
		if n := len(r.Findings); n > 0 {
			warn = fmt.Sprintf(" (%d warning%s)", n, plural(n))
		}
		fmt.Fprintf(w, "verdict: FIT for play%s\n", warn)
		return
	}
	faults := 0
	for _, f := range r.Findings {
		if f.Severity == Fault {
			faults++
		}
	}
	fmt.Fprintf(w, "verdict: UNFIT for play: %d fault%s on %s\n", faults, plural(faults), strings.Join(r.Squares(Fault).SquareNames(), " "))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// jsonFinding is a finding as JSON writes it.
type jsonFinding struct {
	Kind     Kind     `json:"kind"`
	Severity string   `json:"severity"`
	Squares  []string `json:"squares"`
	Text     string   `json:"text"`
}

// MarshalJSON writes the report for test rigs: hardware, fit, findings.
func (r *Report) MarshalJSON() ([]byte, error) {
	out := struct {
		Hardware string        `json:"hardware"`
		Fit      bool          `json:"fit"`
		Findings []jsonFinding `json:"findings"`
	}{Hardware: r.Hardware, Fit: r.Fit(), Findings: []jsonFinding{}}
	for _, f := range r.Findings {
		sev := "warning"
		if f.Severity == Fault {
			sev = "fault"
		}
		names := make([]string, len(f.Squares))
		for i, sq := range f.Squares {
			names[i] = sq.String()
		}
		out.Findings = append(out.Findings, jsonFinding{Kind: f.Kind, Severity: sev, Squares: names, Text: f.Text})
	}
	return json.Marshal(out)
}
