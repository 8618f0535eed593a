package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// docCommand is one command example in the documentation: a line of a code
// block, or a complete command in inline code.
type docCommand struct {
	file   string // path from the repository's root
	line   int
	group  int    // the commands of one group run in order in one directory
	text   string // as written, a continued line joined
	inline bool   // from inline code in prose, not a code block
}

// docSkips are the examples TestDocCommands does not run, each with why.
// Every entry must match some example, so the list cannot outlive the docs.
var docSkips = []struct {
	pattern *regexp.Regexp
	why     string
}{
	// Long-running daemons: they run until stopped. TestBinary,
	// TestSavedGameRules and the hall's, engine's and online tests run them.
	{regexp.MustCompile(`^boardd run\b`), "the daemon runs until stopped"},
	{regexp.MustCompile(`^boardd hall\b`), "the hall's daemon, and an MQTT broker"},
	// Hardware, or a daemon at the other end of a serial line.
	{regexp.MustCompile(`^boardd calibrate( --sim)?( --restart)?( +#.*)?$`), "interactive: waits for a person at the board"},
	{regexp.MustCompile(`^boardd selftest( --no-walk| --json)?( +#.*)?$`), "needs a calibrated board (the --sim form runs)"},
	// The system: a Pi's /etc and /var/lib/boardd, root.
	{regexp.MustCompile(`\bsudo\b`), "changes the system or reads root's files"},
	// A file another program's example writes.
	{regexp.MustCompile(`--trace game\.trace$`), "replays the trace the synthesiser's example above it writes (hwtest's tests run the synthesiser)"},
}

var (
	// docCommandLine is a line of a code block that runs boardd.
	docCommandLine = regexp.MustCompile(`^(?:[^#]*\|\s*)?(?:boardd|go run \./cmd/boardd)(?:\s|$)`)
	// docInline is a command in inline code.
	docInline = regexp.MustCompile("`((?:boardd|go run \\./cmd/boardd) [^`]+)`")
	// docTemplate marks a command written as a template, not an example:
	// an upper-case placeholder (FILE, ID, N), <...>, [...] or an ellipsis.
	docTemplate = regexp.MustCompile(`\b[A-Z][A-Z0-9_]*[A-Z]\b|\b[A-Z]\b|<[^>]*>|\[[^\]]*\]|\.\.\.|…|\|-`)
	// docLawID is a law's id: a law-set and the law's number in its code.
	docLawID = regexp.MustCompile(`\b[a-z]+[0-9]{4}:[A-Za-z0-9.]+|\bnycc:[A-Z0-9.]+`)
	// docFence opens or closes a fenced code block.
	docFence = regexp.MustCompile("^\\s*```")
)

// docValueFlags are flags that take a value: an inline command that ends
// with one names the flag in prose.
var docValueFlags = map[string]bool{"--calibration": true, "--time-control": true, "--laws": true, "--trace": true, "--state-dir": true, "--game": true}

// docExitStatus is the exit status an example is documented to end with,
// where it is not 0.
var docExitStatus = map[string]int{
	// README: selftest "exits 0 if the board is fit for play, 1 if not".
	"boardd selftest --sim --sim-auto --sim-faults dead=e4,cross=c4+c3,deadled=f6": 1,
}

// docCommands reads the command examples of README.md and docs/*.md.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(repoRoot, "README.md")}, files...)
	var cmds []docCommand
	group := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, path)
		rel = filepath.ToSlash(rel)
		group++
		prose := group // a file's inline examples run in order, together
		lines := strings.Split(string(data), "\n")
		prosed := make([]string, len(lines)) // the prose alone, code blanked
		fenced, inBlock := false, false
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if docFence.MatchString(l) {
				fenced = !fenced
				group++
				continue
			}
			indented := !fenced && strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "" &&
				(inBlock || i == 0 || strings.TrimSpace(lines[i-1]) == "")
			if !fenced && !indented {
				if inBlock {
					group++
				}
				inBlock = false
				prosed[i] = l
				continue
			}
			inBlock = indented
			text := strings.TrimSpace(l)
			n := i
			for strings.HasSuffix(text, `\`) && n+1 < len(lines) {
				n++
				text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(lines[n])
			}
			if docCommandLine.MatchString(text) {
				cmds = append(cmds, docCommand{file: rel, line: i + 1, group: group, text: text})
			}
			i = n
		}
		// Inline code, which may break across lines.
		text := strings.Join(prosed, "\n")
		for _, m := range docInline.FindAllStringSubmatchIndex(text, -1) {
			cmds = append(cmds, docCommand{file: rel, line: strings.Count(text[:m[0]], "\n") + 1, group: prose,
				text: strings.Join(strings.Fields(text[m[2]:m[3]]), " "), inline: true})
		}
	}
	return cmds
}

// template reports whether c is written as a template (FILE, <fault>,
// [--state-dir D]) rather than as a command to run. A law's id (nycc:XII,
// fide2023:7.5.1) is no placeholder.
func (c docCommand) template() bool {
	return docTemplate.MatchString(docLawID.ReplaceAllString(stripComment(c.text), "law"))
}

// complete reports whether an inline example is a whole command rather
// than a command named in prose ("boardd replay runs a trace"): it has an
// argument, or is one of the commands that take none.
func (c docCommand) complete() bool {
	words := strings.Fields(strings.Replace(c.text, "go run ./cmd/boardd", "boardd", 1))
	last := words[len(words)-1]
	switch {
	case c.text == "boardd config check":
		return false // named: it wants a file
	case len(words) >= 3 && docValueFlags[last]:
		return false // a flag named, without its value
	}
	switch {
	case len(words) >= 3:
		return true
	case len(words) == 2:
		return strings.HasPrefix(words[1], "-") || words[1] == "version" || words[1] == "laws" || words[1] == "ports"
	}
	return false
}

// TestDocCommands runs every command example in README.md and docs/*.md
// that needs no hardware, network or long-running daemon, against the
// binary built from this tree, in a directory of its own (the repository's
// files linked in, so that testdata/ and the rest are where the examples
// say) with a state directory of its own. Each must exit as documented (0,
// unless docExitStatus says otherwise). The rest are in docSkips, each with
// why. A simulated board's examples run with --sim-speed 0: the same
// commands, at the speed of the machine.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the boardd binary")
	}
	cmds := docCommands(t)
	bin := buildBoardd(t)
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := daemonEnv("PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "XDG_STATE_HOME="+filepath.Join(home, "state"))
	dirs := map[int]string{}
	workDir := func(group int) string {
		if d, ok := dirs[group]; ok {
			return d
		}
		d := t.TempDir()
		for _, e := range entries {
			if e.Name() == ".git" {
				continue
			}
			if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(d, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		dirs[group] = d
		return d
	}
	used := make([]bool, len(docSkips))
	ran, skipped, templates := 0, 0, 0
	start := time.Now()
	for _, c := range cmds {
		where := c.file + ":" + strconv.Itoa(c.line)
		if c.template() || c.inline && !c.complete() {
			templates++
			continue
		}
		run := strings.ReplaceAll(c.text, "go run ./cmd/boardd", "boardd")
		skip := -1
		for i, s := range docSkips {
			if s.pattern.MatchString(strings.TrimSpace(run)) {
				skip = i
				break
			}
		}
		if skip >= 0 {
			used[skip] = true
			t.Logf("skipped (%s): %s: %s", docSkips[skip].why, where, c.text)
			skipped++
			continue
		}
		if strings.Contains(run, "--sim-auto") && !strings.Contains(run, "--sim-speed") {
			run = strings.Replace(run, "--sim-auto", "--sim-auto --sim-speed 0", 1)
		}
		want := docExitStatus[strings.TrimSpace(stripComment(c.text))]
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		cmd := exec.CommandContext(ctx, "bash", "-c", "set -o pipefail; "+run)
		cmd.Dir, cmd.Env = workDir(c.group), env
		out, err := cmd.CombinedOutput()
		cancel()
		ran++
		t.Logf("ran (exit %d): %s: %s", exitCode(err), where, run)
		if got := exitCode(err); got != want {
			t.Errorf("%s: %s\nexit %d (%v), want %d; output:\n%s", where, c.text, got, err, want, tail(string(out), 2000))
		}
	}
	for i, s := range docSkips {
		if !used[i] {
			t.Errorf("docSkips entry %q (%s) matches no example: remove it", s.pattern, s.why)
		}
	}
	t.Logf("%d examples run, %d skipped (docSkips), %d templates or commands named in prose, in %v", ran, skipped, templates, time.Since(start).Round(time.Millisecond))
	if ran < 20 {
		t.Errorf("only %d examples run: the extraction has lost them", ran)
	}
}

// stripComment drops a shell comment at the end of a command line.
func stripComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return strings.TrimSpace(s)
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// TestDocCommandsExtraction holds the extraction to a known page: a code
// block's lines with continuations, a pipe into boardd, inline commands,
// templates and commands named in prose.
func TestDocCommandsExtraction(t *testing.T) {
	cmds := docCommands(t)
	byText := map[string]docCommand{}
	var texts []string
	for _, c := range cmds {
		byText[c.text] = c
		texts = append(texts, c.text)
	}
	sort.Strings(texts)
	for _, want := range []string{
		`printf '{"t":0,"lift":"e2"}\n{"t":400,"place":"e4"}\n' | go run ./cmd/boardd replay --laws fide2023 --trace -`,
		"boardd config example hc165 > boardd.toml",
		"boardd laws fide2023:7.5.1",
		"boardd selftest --sim --sim-auto --sim-faults dead=e4,cross=c4+c3,deadled=f6",
	} {
		if _, ok := byText[want]; !ok {
			t.Errorf("not extracted: %s\nextracted:\n%s", want, strings.Join(texts, "\n"))
		}
	}
	for text, template := range map[string]bool{
		"boardd replay --laws ID --trace FILE|-": true,
		"boardd pgn --game N":                    true,
		"boardd laws nycc":                       false,
		"boardd laws nycc:XII":                   false,
		"boardd pgn  [--state-dir D] --list":     true,
	} {
		if got := (docCommand{text: text}).template(); got != template {
			t.Errorf("%q read as a template: %v, want %v", text, got, template)
		}
	}
	for text, complete := range map[string]bool{
		"boardd replay":                     false,
		"boardd replay --calibration":       false,
		"boardd calibrate --sim --sim-auto": true,
		"boardd version":                    true,
		"boardd -h":                         true,
		"boardd laws nycc":                  true,
		"boardd config check":               false,
	} {
		if got := (docCommand{text: text}).complete(); got != complete {
			t.Errorf("%q read as a complete command: %v, want %v", text, got, complete)
		}
	}
}
