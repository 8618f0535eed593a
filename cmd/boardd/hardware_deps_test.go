package main

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

const modulePrefix = "github.com/boardd/boardd/"

// hardwarePackages are the packages that sense, light, press or carry a
// board: they know LEDs, squares, sensors, buttons and wires, and nothing of
// the game played on them. What joins them to a game lives above both
// (lighting, daemon).
func hardwarePackages() []string {
	return []string{"sensor", "button", "led", "link", "serialport", "calibration", "wiring"}
}

// gameKnowledge says whether the package at path is the game or knows it:
// the door (game, and everything under it), its stages (gesture, arbiter),
// the codes of laws (lawset) and the vocabulary of what boardd decides
// (report).
func gameKnowledge(path string) bool {
	rest, ok := strings.CutPrefix(path, modulePrefix)
	if !ok {
		return false
	}
	top, _, _ := strings.Cut(rest, "/")
	switch top {
	case "game", "gesture", "arbiter", "lawset", "report":
		return true
	}
	return false
}

func TestGameKnowledge(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{modulePrefix + "game", true},
		{modulePrefix + "game/internal/timekeeper", true},
		{modulePrefix + "gesture", true},
		{modulePrefix + "arbiter", true},
		{modulePrefix + "lawset", true},
		{modulePrefix + "report", true},
		{modulePrefix + "lighting", false}, // above both: it may know the game
		{modulePrefix + "led", false},
		{modulePrefix + "board", false},
		{modulePrefix + "sensor", false},
		{modulePrefix + "timing", false},
		{modulePrefix + "trace", false},
		{modulePrefix + "gamepad", false}, // a name that begins as game's does
		{"github.com/other/game", false},
		{"report", false},
	} {
		if got := gameKnowledge(c.path); got != c.want {
			t.Errorf("gameKnowledge(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// Dependencies go one way: a hardware package neither imports the game nor
// links it through another package, and its tests import none of it
// either (a test may still play a game on simulated hardware through test
// support such as hwtest). Two are named here with why:
//
//   - serialport: its Board (board.go) is a serial board joined to a
//     running game: the board's scans and presses go to the game.Runner, the
//     game's reports (report.Report) go back over the link as JSON lines.
//     Its Link and Port need none of it.
//   - wiring: it links lawset and report, never imports them, through
//     config, whose check of a configuration names the law-sets
//     (lawset.IDs) the file may choose.
func TestHardwareKnowsNothingOfTheGame(t *testing.T) {
	type allowance struct {
		imports map[string]bool // imported by the package itself
		links   func(path string) bool
	}
	allowed := map[string]allowance{
		"serialport": {
			imports: map[string]bool{modulePrefix + "game": true, modulePrefix + "report": true},
			links:   func(string) bool { return true }, // all that game links
		},
		"wiring": {
			links: func(p string) bool { return p == modulePrefix+"lawset" || p == modulePrefix+"report" },
		},
	}
	args := []string{"list", "-f", "{{.ImportPath}}|{{join .Deps \" \"}}|{{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}"}
	hardware := hardwarePackages()
	for _, p := range hardware {
		args = append(args, modulePrefix+p)
	}
	out, err := exec.Command(goTool(t), args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(hardware) {
		t.Fatalf("go list listed %d packages, want %d: the list is broken", len(lines), len(hardware))
	}
	for _, line := range lines {
		fields := strings.Split(line, "|")
		if len(fields) != 3 {
			t.Fatalf("go list wrote %q: the list is broken", line)
		}
		name := strings.TrimPrefix(fields[0], modulePrefix)
		a := allowed[name]
		links, imports := strings.Fields(fields[1]), strings.Fields(fields[2])
		if len(links) == 0 {
			t.Errorf("%s links nothing: the list is broken", name)
		}
		var bad []string
		for _, p := range imports {
			if gameKnowledge(p) && !a.imports[p] {
				bad = append(bad, p)
			}
		}
		if bad = unique(bad); len(bad) > 0 {
			t.Errorf("%s (or its tests) imports %s: a hardware package knows nothing of the game; what joins it to one lives above both (as lighting does for led)", name, strings.Join(bad, ", "))
		}
		bad = nil
		for _, p := range links {
			if gameKnowledge(p) && (a.links == nil || !a.links(p)) {
				bad = append(bad, p)
			}
		}
		if len(bad) > 0 {
			t.Errorf("%s links %s: a hardware package knows nothing of the game, through no package it imports", name, strings.Join(bad, ", "))
		}
	}
}

// unique returns the strings of s sorted, each once.
func unique(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
