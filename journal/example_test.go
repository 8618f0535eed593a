package journal_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/trace"
)

// The journal keeps a game across a power cut: each input is appended as it
// comes (moves, rulings and results are synced), and Open reads the game in
// progress back, cutting off the half-written line the cut left, with a
// warning.
func Example() {
	dir, err := os.MkdirTemp("", "journal-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	j, g, err := journal.Open(journal.Options{Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("a game in progress:", g != nil)
	started := time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)
	if _, err := j.Begin(0, journal.NewHeader(1, game.Options{Laws: "fide2023"}, started)); err != nil {
		fmt.Println(err)
		return
	}
	for _, text := range []string{`{"t":0,"lift":"e2"}`, `{"t":400,"place":"e4"}`} {
		l, err := trace.Parse([]byte(text))
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := j.AppendInput(l); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := j.Close(); err != nil {
		fmt.Println(err)
		return
	}

	// The power fails while the next line is being written.
	f, err := os.OpenFile(filepath.Join(dir, journal.CurrentFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Fprint(f, `{"t":1500,"seq":4,"li`)
	f.Close()

	j, g, err = journal.Open(journal.Options{Dir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer j.Close()
	fmt.Println("game", g.Header.Game, "under", g.Header.Laws)
	for _, r := range g.Records {
		switch r.Kind {
		case journal.KindInput:
			fmt.Println(r.Seq, r.Kind, r.Input.Kind, r.Input.Square)
		default:
			fmt.Println(r.Seq, r.Kind)
		}
	}
	for _, w := range g.Warnings {
		fmt.Println("warning:", strings.ReplaceAll(w, dir+string(filepath.Separator), ""))
	}
	// Output:
	// a game in progress: false
	// game 1 under fide2023
	// 1 header
	// 2 input lift e2
	// 3 input place e4
	// warning: journal.jsonl: torn tail dropped after seq 3: 21 bytes
}
