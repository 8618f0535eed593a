package chesslink

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
)

var update = flag.Bool("update", false, "rewrite the generated examples of docs/chesslink.md from what the session sends")

const (
	docPath    = "../docs/chesslink.md"
	docBegin   = "<!-- begin generated: go test ./chesslink -run TestDocExamples -update -->"
	docEnd     = "<!-- end generated -->"
	asciiWidth = 70
	hexWidth   = 16
)

// writeWire writes one message as the doc shows it: who sends it, its
// characters, and its bytes on the wire.
func writeWire(b *strings.Builder, who string, wire []byte) {
	ascii := make([]byte, len(wire))
	for i, c := range wire {
		ascii[i] = c & 0x7f
	}
	pad := strings.Repeat(" ", 8)
	for i := 0; i < len(ascii); i += asciiWidth {
		lead := pad
		if i == 0 {
			lead = fmt.Sprintf("%-8s", who)
		}
		fmt.Fprintf(b, "%s%s\n", lead, ascii[i:min(i+asciiWidth, len(ascii))])
	}
	for i := 0; i < len(wire); i += hexWidth {
		fmt.Fprintf(b, "%s% X\n", pad, wire[i:min(i+hexWidth, len(wire))])
	}
}

// docExamples plays each example command into a fresh session and writes
// what went each way.
func docExamples(t *testing.T) string {
	start, _ := board.ParseFEN(board.StartFEN)
	e4, _ := board.ParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	led := Command{Letter: CmdLEDs, LEDs: LEDPattern{SlotTime: 0x20}}
	led.LEDs.LightSquare(board.NewSquare(4, 1), 0xCC) // e2
	led.LEDs.LightSquare(board.NewSquare(4, 3), 0x33) // e4
	examples := []struct {
		title string
		send  []byte
		setup func(s *Session)
	}{
		{title: "V: version 01.03", send: odd("V")},
		{title: "S: the placement, from h1 (the initial position)", send: odd("S")},
		{title: "W: write register 02 = 03 (report on change)", send: odd("W0203")},
		{title: "R: read register 01 (scan time 0x14 = 20 x 2.048 ms)", send: odd("R01")},
		{title: "L: slot time 0x20 (131 ms); e2's corners 0xCC, e4's 0x33, shared corners none", send: odd(led.String())},
		{title: "X: all LEDs off", send: odd("X")},
		{title: "I: sent by some apps on connect", send: odd("I00")},
		{title: "T: reset (no reply; deaf for 3 s)", send: odd("T")},
		{title: "a status sent unasked (register 02 = 03) after 1.e4", setup: func(s *Session) {
			s.Receive(0, odd("W0203"))
			s.TakeOutput(nil)
			s.SetPlacement(time.Second, e4.Men)
		}},
		{title: "a bad check digit: silence", send: []byte("V57")},
		{title: "the same command as 7-bit ASCII (an app on a USB gadget port): answered", send: none("V")},
	}
	var b strings.Builder
	for i, ex := range examples {
		s := NewSession(Options{})
		s.SetPlacement(0, start.Men)
		s.Receive(0, odd("W0201"))
		s.TakeOutput(nil)
		if ex.setup != nil {
			ex.setup(s)
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "# %s\n", ex.title)
		if ex.send != nil {
			writeWire(&b, "app", ex.send)
			s.Receive(0, ex.send)
		}
		out := s.TakeOutput(nil)
		var d Decoder
		d.Replies = true
		start := 0
		d.Feed(out, func(body []byte, err error) {
			if err != nil {
				t.Fatal(err)
			}
			n := len(body) + 2
			writeWire(&b, "board", out[start:start+n])
			start += n
		})
		if start != len(out) {
			t.Fatalf("%s: %d bytes of output left over", ex.title, len(out)-start)
		}
	}
	return b.String()
}

// TestDocExamples checks that the examples in docs/chesslink.md are what the
// session sends; -update rewrites them.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(docBegin)), bytes.Index(doc, []byte(docEnd))
	if i < 0 || j < i {
		t.Fatalf("%s has no generated block between %q and %q", docPath, docBegin, docEnd)
	}
	block := "\n```\n" + docExamples(t) + "```\n"
	head, tail := doc[:i+len(docBegin)], doc[j:]
	if *update {
		out := append(append(append([]byte(nil), head...), block...), tail...)
		if err := os.WriteFile(docPath, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := string(doc[i+len(docBegin) : j]); got != block {
		t.Errorf("%s's examples are stale; run go test ./chesslink -run TestDocExamples -update and review the diff.\nwant:\n%s", docPath, block)
	}
}
