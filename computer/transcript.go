package computer

import (
	"strconv"
	"strings"
	"sync"
)

// transcript hears every line that passes between the rules library's UCI
// driver and the engine. The driver writes each line it sends or reads to
// its debug logger, and the player installs a transcript as that logger's
// output: it is the only view the library gives of the raw lines, and the
// player needs them for what the library does not keep or gets wrong:
//
//   - the "option" lines, whose multi-word names the library drops
//     ("Skill Level"), see engineOption;
//   - the info lines of a search: the library keeps only the last info line,
//     and after three seconds of search Stockfish's last lines are "currmove"
//     lines with neither score nor principal variation;
//   - the engine's last words, for fault reports.
//
// The logger writes one line per Write call, with no prefix.
type transcript struct {
	mu      sync.Mutex
	options engineOptions
	// badOptions are option lines that did not parse, for the log.
	badOptions []string
	// scored is the last scored info line of the current search for each
	// multipv index (1 for engines that do not say), reset by each "go".
	scored map[int]string
	// last holds the engine's last lines since the last "uci" or "go",
	// oldest first, at most lastWords.
	last []string
	// bestmove is the last "bestmove" line.
	bestmove string
}

// lastWords is how many of the engine's last lines a fault report quotes,
// each cut to lastWordsWidth bytes.
const (
	lastWords      = 3
	lastWordsWidth = 120
)

func newTranscript() *transcript {
	return &transcript{options: engineOptions{}, scored: map[int]string{}}
}

// isSent reports whether a line starting with the word first is one the
// player sends; every other line the logger writes is one the engine wrote.
func isSent(first string) bool {
	switch first {
	case "uci", "isready", "setoption", "ucinewgame", "position", "go", "stop", "quit", "ponderhit", "debug", "register":
		return true
	}
	return false
}

// Write takes one logged line.
func (t *transcript) Write(p []byte) (int, error) {
	line := strings.TrimRight(string(p), "\r\n")
	first, _, _ := strings.Cut(line, " ")
	t.mu.Lock()
	defer t.mu.Unlock()
	if isSent(first) {
		switch first {
		case "uci":
			t.options = engineOptions{}
			t.badOptions = nil
			t.last = t.last[:0]
		case "go":
			clear(t.scored)
			t.bestmove = ""
			t.last = t.last[:0]
		}
		return len(p), nil
	}
	if len(t.last) == lastWords {
		copy(t.last, t.last[1:])
		t.last = t.last[:lastWords-1]
	}
	if len(line) > lastWordsWidth {
		t.last = append(t.last, line[:lastWordsWidth]+"...")
	} else {
		t.last = append(t.last, line)
	}
	switch first {
	case "option":
		if o, err := parseOptionLine(line); err == nil {
			t.options[strings.ToLower(o.Name)] = o
		} else {
			t.badOptions = append(t.badOptions, err.Error())
		}
	case "info":
		if strings.Contains(line, " score ") {
			t.scored[multipvOf(line)] = line
		}
	case "bestmove":
		t.bestmove = line
	}
	return len(p), nil
}

// multipvOf returns the multipv index of an info line, 1 when it has none.
func multipvOf(line string) int {
	fields := strings.Fields(line)
	for i := 0; i+1 < len(fields); i++ {
		if fields[i] == "multipv" {
			if n, err := strconv.Atoi(fields[i+1]); err == nil && n > 0 {
				return n
			}
		}
	}
	return 1
}

// engineOptions returns the options of the last handshake.
func (t *transcript) engineOptions() (engineOptions, []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(engineOptions, len(t.options))
	for k, v := range t.options {
		out[k] = v
	}
	return out, append([]string(nil), t.badOptions...)
}

// scoredLines returns the last scored info line of each multipv index of the
// current search.
func (t *transcript) scoredLines() map[int]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[int]string, len(t.scored))
	for k, v := range t.scored {
		out[k] = v
	}
	return out
}

// lastBestmove returns the last "bestmove" line of the current search.
func (t *transcript) lastBestmove() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bestmove
}

// lastLines returns the engine's last lines, oldest first.
func (t *transcript) lastLines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.last...)
}
