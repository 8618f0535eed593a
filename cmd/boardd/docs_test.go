package main

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository's top directory, seen from this package.
const repoRoot = "../.."

var (
	// mdLink is an inline link or image: [text](target) or [text](target "title").
	mdLink = regexp.MustCompile(`!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	// htmlLink is a link or image in HTML within the Markdown.
	htmlLink = regexp.MustCompile(`<(?:a|img)\b[^>]*?\s(?:href|src)="([^"]+)"`)
	// mdHeading is an ATX heading.
	mdHeading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	// htmlAnchor is an anchor set by hand: <a id="x"> or <a name="x">.
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	// codeSpan is inline code, where brackets are no links.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	// inlineLink and htmlTag are markup a heading's anchor leaves out.
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// TestMarkdownLinks checks every relative link and anchor in the
// repository's Markdown files: the file linked to exists, and an anchor
// (#section) names a heading of that file as GitHub makes its anchors.
// Links to the web are not followed.
func TestMarkdownLinks(t *testing.T) {
	files := map[string]string{} // path from the root -> text
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(repoRoot, path)
			files[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := files["README.md"]; !ok || len(files) < 5 {
		t.Fatalf("found %d Markdown files, not the repository's", len(files))
	}
	anchors := map[string]map[string]bool{}
	for path, text := range files {
		anchors[path] = markdownAnchors(text)
	}
	checked := 0
	for path, text := range files {
		for _, l := range markdownLinks(text) {
			target, fragment, _ := strings.Cut(l.target, "#")
			if target == "" && fragment == "" {
				continue
			}
			if u, err := url.Parse(target); err == nil && u.Scheme != "" {
				continue // the web, mail: not ours to check
			}
			checked++
			where := path + ":" + strconv.Itoa(l.line)
			file := path
			if target != "" {
				unescaped, err := url.PathUnescape(target)
				if err != nil {
					t.Errorf("%s: link %q: %v", where, l.target, err)
					continue
				}
				file = filepath.ToSlash(filepath.Join(filepath.Dir(path), unescaped))
				if strings.HasPrefix(file, "../") {
					t.Errorf("%s: link %q leaves the repository", where, l.target)
					continue
				}
				if _, err := os.Stat(filepath.Join(repoRoot, file)); err != nil {
					t.Errorf("%s: link %q: no such file %s", where, l.target, file)
					continue
				}
			}
			if fragment == "" {
				continue
			}
			a, ok := anchors[file]
			if !ok {
				continue // an anchor into a file that is not Markdown (a line of code): GitHub's
			}
			if !a[fragment] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", where, l.target, file, fragment)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links checked: is the link pattern right?", checked)
	}
}

// mdRef is a link found in a Markdown text, with its line.
type mdRef struct {
	target string
	line   int
}

// markdownLinks returns the inline links and images of a Markdown text,
// outside code blocks and code spans.
func markdownLinks(text string) []mdRef {
	var out []mdRef
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if f := fenceOf(trimmed); f != "" {
			switch {
			case fence == "":
				fence = f
				continue
			case strings.HasPrefix(trimmed, fence):
				fence = ""
				continue
			}
		}
		if fence != "" {
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		for _, re := range []*regexp.Regexp{mdLink, htmlLink} {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				out = append(out, mdRef{target: m[1], line: i + 1})
			}
		}
	}
	return out
}

// fenceOf returns the fence a line opens or closes (``` or ~~~), or "".
func fenceOf(trimmed string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(trimmed, f) {
			return f
		}
	}
	return ""
}

// markdownAnchors returns the anchors GitHub gives a Markdown text's
// headings (a repeated heading gets -1, -2, ...), and anchors set by hand.
func markdownAnchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	fence := ""
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if f := fenceOf(trimmed); f != "" {
			if fence == "" {
				fence = f
			} else if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
		m := mdHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := githubSlug(m[1])
		if n := seen[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// githubSlug makes a heading's anchor as GitHub does: the text without its
// markup, in lower case, with every character but letters, marks, digits,
// connector punctuation, spaces and hyphens dropped, and spaces made
// hyphens.
func githubSlug(heading string) string {
	// Links keep their text; emphasis and code marks go.
	heading = inlineLink.ReplaceAllString(heading, "$1")
	heading = htmlTag.ReplaceAllString(heading, "")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestGithubSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Sensor wiring `mcp23017`: I²C expanders":           "sensor-wiring-mcp23017-i²c-expanders",
		"Sensor wiring `matrix`: switch matrix on 16 GPIOs": "sensor-wiring-matrix-switch-matrix-on-16-gpios",
		"Buttons":                "buttons",
		"`[sensor.mcp23017]`":    "sensormcp23017",
		"The codes side by side": "the-codes-side-by-side",
		"HELLO `0x01`":           "hello-0x01",
		"What a Hall-sensor board can and cannot know": "what-a-hall-sensor-board-can-and-cannot-know",
		"Running it (in [Go](https://go.dev))":         "running-it-in-go",
		"Time & date":                                  "time--date",
	} {
		if got := githubSlug(heading); got != want {
			t.Errorf("githubSlug(%q) = %q, want %q", heading, got, want)
		}
	}
	a := markdownAnchors("# A\n## A\n```\n# not a heading\n```\n## A\n<a id=\"by-hand\"></a>\n")
	for _, want := range []string{"a", "a-1", "a-2", "by-hand"} {
		if !a[want] {
			t.Errorf("anchors %v lack %s", a, want)
		}
	}
	if a["not-a-heading"] {
		t.Error("a line in a code block made an anchor")
	}
	links := markdownLinks("see [x](a.md#b) and `[y](c.md)`\n```\n[z](d.md)\n```\n![img](docs/p.png \"title\")\n<img alt=\"a\" src=\"docs/q.png\" width=\"3\">\n")
	if len(links) != 3 || links[0].target != "a.md#b" || links[1].target != "docs/p.png" || links[2].target != "docs/q.png" {
		t.Errorf("links %v", links)
	}
}

// TestLayoutTableNamesEveryPackage keeps README's layout table the map:
// every directory holding Go code is named in it (itself, or under a parent
// row that names its sub-packages, such as game/internal/), and every path it
// names exists.
func TestLayoutTableNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "\n## Layout\n")
	if !ok {
		t.Fatal("README has no Layout section")
	}
	if end := strings.Index(table, "\n## "); end >= 0 {
		table = table[:end]
	}
	named := map[string]bool{}
	cell := regexp.MustCompile(`^\| ([^|]+) \|`)
	path := regexp.MustCompile("`([a-z0-9_./-]+/)`")
	for _, line := range strings.Split(table, "\n") {
		m := cell.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, p := range path.FindAllStringSubmatch(m[1], -1) {
			dir := strings.TrimSuffix(p[1], "/")
			named[dir] = true
			if _, err := os.Stat(filepath.Join(repoRoot, dir)); err != nil {
				t.Errorf("the layout table names %s/, which does not exist", dir)
			}
		}
	}
	err = filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != repoRoot && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		dir, _ := filepath.Rel(repoRoot, filepath.Dir(p))
		dir = filepath.ToSlash(dir)
		for d := dir; d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			if named[d] {
				return nil
			}
		}
		t.Errorf("%s/ holds Go code and is not in README's layout table", dir)
		return filepath.SkipDir
	})
	if err != nil {
		t.Fatal(err)
	}
}
