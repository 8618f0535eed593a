package chesslink

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// replies decodes what the session has to send.
func replies(t *testing.T, s *Session) []string {
	t.Helper()
	var out []string
	d := Decoder{Replies: true, RequireParity: true}
	d.Feed(s.TakeOutput(nil), func(body []byte, err error) {
		if err != nil {
			t.Fatalf("the session sent a malformed message: %v", err)
		}
		out = append(out, string(body))
	})
	if d.Pending() != 0 {
		t.Fatalf("the session sent an unfinished message")
	}
	return out
}

func status(t *testing.T, fen string, o Orientation) string {
	m := men(t, fen)
	return string(AppendStatus(nil, &m, o))
}

func TestSessionAnswers(t *testing.T) {
	var shown []LEDPattern
	s := NewSession(Options{ShowLEDs: func(p LEDPattern) { shown = append(shown, p) }})
	start := men(t, board.StartFEN)
	if err := s.SetPlacement(0, start); err != nil {
		t.Fatal(err)
	}
	var led Command
	led.Letter = CmdLEDs
	led.LEDs.SlotTime = 0x20
	led.LEDs.LightSquare(sq(t, "e2"), 0xCC)
	led.LEDs.LightSquare(sq(t, "e4"), 0x33)
	cases := []struct {
		cmd  string
		want []string
	}{
		{"V", []string{"v0103"}},
		{"S", []string{status(t, board.StartFEN, FromH1)}},
		{"R00", []string{"r0000"}},
		{"R01", []string{"r0114"}},
		{"R02", []string{"r0200"}},
		{"R03", []string{"r0314"}},
		{"R04", []string{"r040F"}},
		{"R06", []string{"r0600"}},
		{"W0203", []string{"w0203"}},
		{"R02", []string{"r0203"}},
		{"W40AB", []string{"w40AB"}},
		{"R40", []string{"r40AB"}},
		{"I00", []string{"i0055mm"}},
		{led.String(), []string{"l"}},
		{"X", []string{"x"}},
		{"W0405", []string{"w0405"}},
		{"Q", nil},
	}
	for _, c := range cases {
		s.Receive(0, odd(c.cmd))
		if got := replies(t, s); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: replies %q, want %q", c.cmd, got, c.want)
		}
	}
	if len(shown) != 3 {
		t.Fatalf("ShowLEDs called %d times, want 3 (L, X, brightness)", len(shown))
	}
	if got := squareNames(shown[0].Lit()); got != "e2 e4" || shown[0].SlotTime != 0x20 || shown[0].Brightness != 15 {
		t.Errorf("L showed %q slot %02X brightness %d", got, shown[0].SlotTime, shown[0].Brightness)
	}
	if !shown[1].Dark() {
		t.Error("X did not darken the LEDs")
	}
	if !shown[2].Dark() || shown[2].Brightness != 5 {
		t.Errorf("brightness change showed %+v", shown[2])
	}
	if st := s.Stats(); st.Commands != 16 || st.Decoder.Stray != 3 {
		t.Errorf("stats %+v", st)
	}
}

func TestSessionOrientationFromA8(t *testing.T) {
	s := NewSession(Options{Orientation: FromA8, Version: 0x0217})
	s.SetPlacement(0, men(t, board.StartFEN))
	s.Receive(0, cat(odd("V"), odd("S")))
	got := replies(t, s)
	want := []string{"v0217", "srnbqkbnrpppppppp" + strings.Repeat(".", 32) + "PPPPPPPPRNBQKBNR"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("replies %q, want %q", got, want)
	}
}

func TestSessionIgnoresMalformed(t *testing.T) {
	var logged bytes.Buffer
	s := NewSession(Options{Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	cases := []struct {
		name string
		in   []byte
	}{
		{"bad checksum", []byte("V57")},
		{"bad parity", flip7(odd("S"), 1)},
		{"cut short", odd("W0203")[:4]},
		{"noise", []byte("hello\r\n")},
	}
	for _, c := range cases {
		s.Receive(0, c.in)
		if got := replies(t, s); len(got) != 0 {
			t.Errorf("%s: replies %q, want silence", c.name, got)
		}
	}
	// The cut-short W was dropped when the noise came; V is answered.
	s.Receive(0, odd("V"))
	if got := replies(t, s); len(got) != 1 || got[0] != "v0103" {
		t.Errorf("after the malformed messages: %q", got)
	}
	if s.Register(RegAutoReport) != 0 {
		t.Error("a cut-short W wrote a register")
	}
	for _, want := range []string{`has check digits \"57\", want 56`, "has bytes without odd parity", "broken off by 'h'", "skipped bytes outside any message"} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("debug log lacks %q:\n%s", want, logged.String())
		}
	}
}

// runSession drives s in virtual time to end: it runs each scripted step at
// its time and every timer at its deadline, and returns the times of the
// statuses sent, with what they showed.
type step struct {
	at time.Duration
	do func(s *Session, now time.Duration)
}

type sent struct {
	at   time.Duration
	body string
}

func runSession(t *testing.T, s *Session, end time.Duration, steps []step) []sent {
	t.Helper()
	var out []sent
	collect := func(now time.Duration) {
		for _, r := range replies(t, s) {
			out = append(out, sent{now, r})
		}
	}
	s.Advance(0)
	collect(0)
	for {
		now := s.Deadline()
		if len(steps) > 0 && steps[0].at <= now {
			now = steps[0].at
			s.Advance(now)
			steps[0].do(s, now)
			steps = steps[1:]
		} else if now > end {
			return out
		} else {
			s.Advance(now)
		}
		collect(now)
	}
}

func place(t *testing.T, fen string) func(*Session, time.Duration) {
	m := men(t, fen)
	return func(s *Session, now time.Duration) {
		if err := s.SetPlacement(now, m); err != nil {
			t.Fatal(err)
		}
	}
}

func command(c string) func(*Session, time.Duration) {
	return func(s *Session, now time.Duration) { s.Receive(now, odd(c)) }
}

func statuses(all []sent) []sent {
	var out []sent
	for _, s := range all {
		if s.body[0] == 's' {
			out = append(out, s)
		}
	}
	return out
}

func times(ss []sent) string {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.2f", float64(s.at)/float64(time.Millisecond))
	}
	return b.String()
}

func TestReportModes(t *testing.T) {
	const e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	const e4lifted = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	ms := time.Millisecond
	cases := []struct {
		name  string
		steps []step
		count int    // statuses sent unasked in the first second
		times string // their times in ms, when given
		last  string // the FEN of the last one, when given
	}{
		// An app that speaks now and then (here halfway) hears every status.
		{name: "every scan by default", steps: []step{{500 * ms, command("R01")}}, count: 24},
		// One that never speaks hears about 1 KiB of repeats (16 of 67
		// bytes: the last begun under the bound), then no more until it
		// speaks or the placement changes.
		{name: "every scan, the app silent", count: 16},
		{name: "every scan, the app silent, a change", steps: []step{{800 * ms, place(t, e4)}}, count: 17, last: e4},
		{name: "every scan, scan time 48", steps: []step{{0, command("W0130")}}, count: 10},
		{name: "every scan, scan time below 15 reads as 20", steps: []step{{0, command("W0105")}, {500 * ms, command("R01")}}, count: 24},
		{name: "off", steps: []step{{0, command("W0201")}, {100 * ms, place(t, e4)}}, count: 0},
		{name: "timed, 48 units", steps: []step{{0, command("W0330")}, {0, command("W0202")}}, count: 5,
			times: "196.61 393.22 589.82 786.43 983.04"},
		{name: "timed, faster than a scan", steps: []step{{0, command("W0301")}, {0, command("W0202")}, {500 * ms, command("R01")}}, count: 24},
		{name: "on change, a change at most once a scan", steps: []step{{0, command("W0203")}, {100 * ms, place(t, e4lifted)}, {110 * ms, place(t, e4)}},
			count: 3, times: "0.00 100.00 140.96", last: e4},
		// The board has sent nothing yet, so the placement it shows counts as a change.
		{name: "on change", steps: []step{{0, command("W0203")}, {100 * ms, place(t, e4lifted)}, {300 * ms, place(t, e4)}},
			count: 3, times: "0.00 100.00 300.00", last: e4},
		{name: "on change, nothing changes", steps: []step{{0, command("W0203")}, {500 * ms, place(t, board.StartFEN)}},
			count: 1, times: "0.00"},
		{name: "on change after 3 scans", steps: []step{{0, command("W0205")}, {100 * ms, place(t, e4)}},
			count: 2, times: "81.92 181.92", last: e4},
		{name: "on change after 3 scans, a flicker is not reported", steps: []step{{0, command("W0205")},
			{100 * ms, place(t, e4lifted)}, {150 * ms, place(t, board.StartFEN)}}, count: 1, times: "81.92", last: board.StartFEN},
		{name: "on change after 5 scans", steps: []step{{0, command("W0207")}, {100 * ms, place(t, e4)}},
			count: 1, times: "263.84", last: e4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession(Options{})
			steps := append([]step{{0, place(t, board.StartFEN)}}, c.steps...)
			reports := statuses(runSession(t, s, time.Second, steps))
			if len(reports) != c.count || int(s.Stats().Reports) != c.count {
				t.Errorf("%d reports (%d counted) at %s ms, want %d", len(reports), s.Stats().Reports, times(reports), c.count)
			}
			if c.times != "" && times(reports) != c.times {
				t.Errorf("reports at %s ms, want %s", times(reports), c.times)
			}
			if c.last != "" && (len(reports) == 0 || reports[len(reports)-1].body != status(t, c.last, FromH1)) {
				t.Errorf("the last report does not show %s", c.last)
			}
		})
	}
}

func TestReset(t *testing.T) {
	var shown []LEDPattern
	s := NewSession(Options{ShowLEDs: func(p LEDPattern) { shown = append(shown, p) }})
	var led Command
	led.Letter = CmdLEDs
	led.LEDs.LightSquare(sq(t, "d4"), 0xFF)
	sec := time.Second
	all := runSession(t, s, 5*sec, []step{
		{0, command("W0201")},
		{0, command(led.String())},
		{sec, command("T")},
		{sec, command("V")},     // in the same breath: deaf
		{2 * sec, command("V")}, // still resetting
		{4*sec + time.Millisecond, command("V")},
		{4*sec + time.Millisecond, command("R02")}, // registers are EEPROM: kept
	})
	var got []string
	for _, r := range all {
		got = append(got, fmt.Sprintf("%v:%s", r.at, r.body))
	}
	want := []string{"0s:w0201", "0s:l", "4.001s:v0103", "4.001s:r0201"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("replies %q, want %q", got, want)
	}
	if len(shown) != 2 || !shown[1].Dark() {
		t.Errorf("T did not darken the LEDs: %d patterns", len(shown))
	}
	if st := s.Stats(); st.Resets != 1 || st.Deaf == 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestResetThenEveryScan(t *testing.T) {
	s := NewSession(Options{ResetDelay: 500 * time.Millisecond})
	all := runSession(t, s, time.Second, []step{{100 * time.Millisecond, command("T")}})
	// Scans at 40.96, 81.92 before the reset; none while it lasts; from
	// 600 ms on, every 40.96 ms again.
	if got, want := times(statuses(all)), "40.96 81.92 640.96 681.92 722.88 763.84 804.80 845.76 886.72 927.68 968.64"; got != want {
		t.Errorf("reports at %s, want %s", got, want)
	}
}

func TestNoCheckDigits(t *testing.T) {
	s := NewSession(Options{})
	s.Receive(0, odd("W0001"))
	s.Receive(0, []byte("V"))
	s.Receive(0, []byte("R01"))
	s.Receive(0, []byte("W0000"))
	s.Receive(0, []byte("V"))  // check digits expected again: unfinished
	s.Receive(0, []byte("56")) // now complete
	got := replies(t, s)
	want := []string{"w0001", "v0103", "r0114", "w0000", "v0103"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("replies %q, want %q", got, want)
	}
}

func TestBacklog(t *testing.T) {
	s := NewSession(Options{})
	s.SetPlacement(0, men(t, board.StartFEN))
	// Every scan for ten seconds, and nobody reads: the output stays bounded.
	for now := time.Duration(0); now < 10*time.Second; now = s.Deadline() {
		s.Advance(now)
	}
	if p := s.Pending(); p > reportBacklog+67 {
		t.Errorf("%d bytes pending", p)
	}
	if st := s.Stats(); st.ReportsHeld == 0 {
		t.Error("no report held back")
	}
	// On change: a change while the app does not read is sent once it does.
	s.TakeOutput(nil)
	s.Receive(10*time.Second, odd("W0203"))
	s.Advance(10 * time.Second)
	for s.Pending() < reportBacklog {
		s.Receive(10*time.Second, odd("V"))
	}
	s.SetPlacement(10*time.Second, men(t, "8/8/8/8/8/8/8/K6k w - - 0 1"))
	if len(statuses(sentAt(t, s, 0))) != 0 {
		t.Fatal("a report went out over the backlog")
	}
	due := s.Deadline()
	if due == timing.Never {
		t.Fatal("the held change is forgotten")
	}
	s.Advance(due)
	got := statuses(sentAt(t, s, due))
	if len(got) != 1 || got[0].body != status(t, "8/8/8/8/8/8/8/K6k w - - 0 1", FromH1) {
		t.Errorf("held change sent as %v", got)
	}
	if s.Deadline() != timing.Never {
		t.Error("a timer is left after the change was sent")
	}
}

func sentAt(t *testing.T, s *Session, at time.Duration) []sent {
	var out []sent
	for _, r := range replies(t, s) {
		out = append(out, sent{at, r})
	}
	return out
}

func TestSetPlacementRefusesNonsense(t *testing.T) {
	s := NewSession(Options{})
	m := men(t, board.StartFEN)
	s.SetPlacement(0, m)
	bad := m
	bad[0] = board.Man(0xff)
	if err := s.SetPlacement(0, bad); err == nil {
		t.Fatal("no error")
	}
	if s.Placement() != m {
		t.Error("the placement changed")
	}
}

func TestReportModeString(t *testing.T) {
	want := []string{"every-scan", "off", "timed", "on-change", "on-change-2", "on-change-3", "on-change-4", "on-change-5"}
	for m, w := range want {
		if got := ReportMode(m).String(); got != w {
			t.Errorf("ReportMode(%d) = %q, want %q", m, got, w)
		}
	}
}
