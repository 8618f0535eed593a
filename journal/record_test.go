package journal

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

func TestRecordsRoundTrip(t *testing.T) {
	phys := board.Occupancy(0xffff00000000ffef)
	h := Header{
		Game: 7, Laws: "nycc", Setup: "8/8/8/8/8/8/8/K1k5 w - - 0 1", Odds: "pawn-and-move", TimeControl: "40/5400+30:1800+30", ClockAtFirstInput: true, Tournament: true, Remote: "black", VisuallyImpaired: "white",
		Tags:    map[string]string{"Date": "2025.06.01", "White": "Morphy, \"Paul\"", "Event": "Café"},
		Started: time.Date(2025, 6, 1, 18, 30, 0, 0, time.UTC), Physical: &phys,
		Debounce: 30 * time.Millisecond, Settle: 300 * time.Millisecond, OpenWait: 1500 * time.Millisecond, Jadoube: 2 * time.Second,
		QuickSettle: -1 * time.Millisecond, Bump: 120 * time.Millisecond,
	}
	line, err := AppendHeader(nil, 1500*time.Millisecond, 41, h)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRecord(line[:len(line)-1])
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != KindHeader || r.Seq != 41 || r.T != 1500*time.Millisecond || !reflect.DeepEqual(*r.Header, h) {
		t.Errorf("header %s read back as %+v %+v", line, r, r.Header)
	}
	// A warn-only game's header (never a tournament's).
	warn := h
	warn.Tournament, warn.WarnOnly = false, true
	if line, err = AppendHeader(nil, 0, 1, warn); err != nil {
		t.Fatal(err)
	}
	if r, err = ParseRecord(line[:len(line)-1]); err != nil || !reflect.DeepEqual(*r.Header, warn) || !strings.Contains(string(line), `"warn_only":true`) {
		t.Errorf("warn-only header %s read back as %+v, %v", line, r.Header, err)
	}

	inputs := []trace.Line{
		{T: 10, Kind: trace.Lift, Square: 12},
		{T: 2500 * time.Microsecond, Kind: trace.Place, Square: 28},
		{T: time.Second, Kind: trace.Frame, Occupancy: 0xffff00000000ffff},
		{T: time.Second, Kind: trace.Press, Button: trace.ButtonClaim, Side: trace.SideWhite},
		{T: time.Second, Kind: trace.Choose, Option: "stand", Side: trace.SideArbiter},
		{T: time.Second, Kind: trace.Promote, Piece: board.Knight, Side: trace.SideBlack},
		{T: time.Second, Kind: trace.Arbiter, Action: "new-game", Value: "x", Side: trace.SideArbiter},
	}
	for i, in := range inputs {
		line := AppendInput(nil, uint64(100+i), in)
		r, err := ParseRecord(line[:len(line)-1])
		in.Seq = uint64(100 + i)
		if err != nil || r.Kind != KindInput || r.Seq != in.Seq || r.Input != in {
			t.Errorf("input %s read back as %+v, %v", line, r.Input, err)
		}
	}

	reports := []report.Report{
		{Type: report.Touch, T: 5, Side: "white", Square: "e2", Piece: "pawn"},
		{Type: report.Adjust, T: 5, Side: "black", Square: "e7", Announced: true},
		{Type: report.Move, T: 6, Side: "white", UCI: "e2e4", SAN: "e4", FEN: board.StartFEN, WhiteClock: "1:00:00", BlackClock: "0:59:58", Law: "fide2023:D.2.3"},
		{Type: report.Irregularity, T: 7, Kind: "touch-move", Law: "fide2023:4.3.1", Offender: "white", Chooser: "black",
			Options: []report.Option{{ID: "stand", Squares: []string{"g1", "e4"}}, {ID: "move-touched", Squares: []string{"g1"}}}, Reason: "why"},
		{Type: report.Ruling, T: 8, Option: "stand", By: "lapse", Law: "fide2023:4.8", Reason: "r"},
		{Type: report.Mismatch, T: 9, Missing: []string{"a1"}, Extra: []string{"a3", "h3"}},
		{Type: report.Result, T: 10, Result: "1-0", Reason: "checkmate", Law: "fide2023:5.1.1"},
		{Type: report.Clock, T: 11, Side: "black", WhiteClock: "1", BlackClock: "2", Reason: "flag"},
		{Type: report.Synced, T: 12},
	}
	for i, rep := range reports {
		line := AppendReport(nil, uint64(200+i), &rep)
		r, err := ParseRecord(line[:len(line)-1])
		if err != nil || r.Kind != KindReport || r.Seq != uint64(200+i) || r.T != rep.T {
			t.Errorf("report %s: %+v, %v", line, r, err)
			continue
		}
		// Compare through the wire form: absent lists read back as nil.
		if got, want := string(r.Report.AppendJSON(nil)), string(rep.AppendJSON(nil)); got != want {
			t.Errorf("report read back as %s, want %s", got, want)
		}
	}

	tag := AppendTag(nil, time.Minute, 300, "Date", "2025.06.02")
	r, err = ParseRecord(tag[:len(tag)-1])
	if err != nil || r.Kind != KindTag || r.Tag != "Date" || r.Value != "2025.06.02" || r.T != time.Minute || r.Seq != 300 {
		t.Errorf("tag %s read back as %+v, %v", tag, r, err)
	}

	comment := AppendComment(nil, time.Minute, 301, 17, "[%eval -1.50,14] Stockfish 15.1 \"-1.50/14\"")
	r, err = ParseRecord(comment[:len(comment)-1])
	if err != nil || r.Kind != KindComment || r.Ply != 17 || r.Value != "[%eval -1.50,14] Stockfish 15.1 \"-1.50/14\"" || r.T != time.Minute || r.Seq != 301 {
		t.Errorf("comment %s read back as %+v, %v", comment, r, err)
	}
}

func TestBadRecordsAreRefusedWithReason(t *testing.T) {
	cases := []struct{ line, want string }{
		{`{"t":1,"lift":"e2"}`, `missing "seq"`},
		{`{"seq":3,"lift":"e2"}`, `missing "t"`},
		{`{"t":-1,"seq":3,"lift":"e2"}`, `not a time`},
		{`{"t":1,"seq":3,"journal":2,"game":1,"laws":"x"}`, `version 2`},
		{`{"t":1,"seq":3,"journal":1,"game":1}`, `no law-set`},
		{`{"t":1,"seq":3,"journal":1,"game":1,"laws":"nycc","fen":"nonsense"}`, `fen`},
		{`{"t":1,"seq":3,"journal":1,"game":1,"laws":"nycc","physical":"xyz"}`, `physical`},
		{`{"t":1,"seq":3,"journal":1,"game":1,"laws":"nycc","started":"yesterday"}`, `started`},
		{`{"t":1,"seq":3,"journal":1,"game":1,"laws":"nycc","remote":"nobody"}`, `remote "nobody"`},
		{`{"t":1,"seq":3,"type":"move","tag":"Date"}`, `more than one`},
		{`{"t":1,"seq":3,"type":""}`, `no "type"`},
		{`{"t":1,"seq":3,"tag":""}`, `empty name`},
		{`{"t":1,"seq":3,"comment":"+0.3"}`, `"ply"`},
		{`{"t":1,"seq":3,"comment":"+0.3","tag":"Date"}`, `more than one`},
		{`{"t":1,"seq":3,"lift":"z9"}`, `square`},
		{`{"t":1,"seq":3,"setup":"8/8/8/8/8/8/8/K1k5 w - - 0 1"}`, `header`},
		{`{"t":1,"seq":3}`, `no input`},
		{"\x00\x00\x00", `not a JSON object`},
		{`{"t":1,"seq":"3","lift":"e2"}`, `"seq" is a JSON string, want a whole number`},
	}
	for _, c := range cases {
		_, err := ParseRecord([]byte(c.line))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error saying %q", c.line, err, c.want)
		}
	}
}

// FuzzParseRecord: no line makes the reader panic, and a record it accepts
// reads back the same once written again.
func FuzzParseRecord(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.jsonl")
	for _, s := range seeds {
		data, _ := os.ReadFile(s)
		for _, l := range strings.Split(string(data), "\n") {
			f.Add([]byte(l))
		}
	}
	f.Add([]byte(`{"t":1,"seq":3,"lift":"e2"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := ParseRecord(line)
		if err != nil {
			return
		}
		var again []byte
		switch r.Kind {
		case KindInput:
			again = AppendInput(nil, r.Seq, r.Input)
		case KindTag:
			again = AppendTag(nil, r.T, r.Seq, r.Tag, r.Value)
		case KindComment:
			again = AppendComment(nil, r.T, r.Seq, r.Ply, r.Value)
		case KindReport:
			again = AppendReport(nil, r.Seq, &r.Report)
		case KindHeader:
			again, err = AppendHeader(nil, r.T, r.Seq, *r.Header)
			if err != nil {
				t.Fatal(err)
			}
		}
		r2, err := ParseRecord(again[:len(again)-1])
		if err != nil {
			t.Fatalf("%q read, written as %q, not read again: %v", line, again, err)
		}
		if r2.Kind != r.Kind || r2.Seq != r.Seq {
			t.Fatalf("%q read back as %s seq %d, then %s seq %d", line, r.Kind, r.Seq, r2.Kind, r2.Seq)
		}
	})
}

func BenchmarkAppendInput(b *testing.B) {
	dir := b.TempDir()
	j, _, err := Open(Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	if _, err := j.Begin(0, NewHeader(1, game.Options{Laws: "fide2023"}, time.Time{})); err != nil {
		b.Fatal(err)
	}
	l := trace.Line{Kind: trace.Frame, Occupancy: 0xffff00000000ffff}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		l.T = time.Duration(i) * time.Millisecond
		if err := j.AppendInput(l); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendMove is a move report: written and fsynced.
func BenchmarkAppendMove(b *testing.B) {
	dir := b.TempDir()
	j, _, err := Open(Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	if _, err := j.Begin(0, NewHeader(1, game.Options{Laws: "fide2023"}, time.Time{})); err != nil {
		b.Fatal(err)
	}
	r := report.Report{Type: report.Move, Side: "white", UCI: "e2e4", SAN: "e4", FEN: board.StartFEN}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.T = time.Duration(i) * time.Millisecond
		if err := j.AppendReport(&r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseRecord(b *testing.B) {
	lines := [][]byte{
		[]byte(`{"t":1400,"seq":12,"place":"e4"}`),
		[]byte(`{"seq":13,"type":"move","t":2950,"side":"white","uci":"e2e4","san":"e4","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"}`),
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := ParseRecord(lines[i%2]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay rebuilds a whole game from its journal, as boardd does
// when it starts.
func BenchmarkReplay(b *testing.B) {
	dir := b.TempDir()
	s := start(b, Options{Dir: dir}, noWall)
	s.feed(legalsMate(b, false)...)
	s.finish()
	s.close()
	b.ReportAllocs()
	for b.Loop() {
		g, err := Read(dir)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Replay(g, game.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestControlCharactersAreEscaped: what the console's input API takes (an
// option id, a tag's value) may hold control characters and DEL; they are
// written as JSON escapes, so the next start reads the line.
func TestControlCharactersAreEscaped(t *testing.T) {
	in := trace.Line{T: time.Second, Kind: trace.Choose, Option: "x\x01\x7f\"\\\n", Side: trace.SideWhite}
	line := AppendInput(nil, 9, in)
	tag := AppendTag(nil, time.Second, 10, "Site", "Caf\x00é\x1b[2J")
	for _, l := range [][]byte{line, tag} {
		for _, b := range l[:len(l)-1] {
			if b < 0x20 || b == 0x7f {
				t.Errorf("a raw control character in %q", l)
			}
		}
	}
	r, err := ParseRecord(line[:len(line)-1])
	in.Seq = 9
	if err != nil || r.Input != in {
		t.Errorf("read back as %+v, %v; want %+v", r.Input, err, in)
	}
	r, err = ParseRecord(tag[:len(tag)-1])
	if err != nil || r.Value != "Caf\x00é\x1b[2J" {
		t.Errorf("tag read back as %q, %v", r.Value, err)
	}
}

// BenchmarkReadLongJournal reads back the journal of a 182-ply game (789
// records), checking every checksum, as boardd does when it starts.
func BenchmarkReadLongJournal(b *testing.B) {
	data, _ := longJournal(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parse("long", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRepairLine finds and repairs one damaged byte in a move report.
func BenchmarkRepairLine(b *testing.B) {
	line := AppendReport(nil, 13, &report.Report{Type: report.Move, T: 2950 * time.Millisecond, Side: "white", UCI: "e2e4", SAN: "e4", FEN: board.StartFEN})
	line = line[:len(line)-1]
	line[40] ^= 1
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := repair(line); !ok {
			b.Fatal("not repaired")
		}
	}
}

// BenchmarkFormat is what sealing costs a record before it is written: an
// input and a move report formatted as before checksums, and sealed.
func BenchmarkFormat(b *testing.B) {
	in := trace.Line{T: 1400 * time.Millisecond, Kind: trace.Frame, Occupancy: 0xffff00000000ffff, Seq: 12}
	mv := report.Report{Type: report.Move, T: 2950 * time.Millisecond, Side: "white", UCI: "e2e4", SAN: "e4", FEN: board.StartFEN}
	buf := make([]byte, 0, 512)
	b.Run("input/unsealed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = trace.Append(buf[:0], in)
		}
	})
	b.Run("input/sealed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = AppendInput(buf[:0], 12, in)
		}
	})
	b.Run("move/unsealed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = mv.AppendJSON(buf[:0])
		}
	})
	b.Run("move/sealed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = AppendReport(buf[:0], 13, &mv)
		}
	})
}
