package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// licenceMarks are the phrases that identify a licence's text, for each
// licence README's dependency table may name. All of them are compatible
// with boardd's Apache-2.0.
var licenceMarks = map[string][]string{
	"Apache-2.0":   {"Apache License", "Version 2.0"},
	"MIT":          {"Permission is hereby granted, free of charge"},
	"BSD-2-Clause": {"Redistribution and use in source and binary forms"},
	"BSD-3-Clause": {"Redistribution and use in source and binary forms", "Neither the name"},
	// The Eclipse Distribution License is the BSD-3-Clause text; paho
	// ships it beside the EPL as edl-v10.
	"EDL-1.0": {"Eclipse Distribution License - v 1.0", "Neither the name"},
}

// goModRequires returns the modules go.mod requires, with whether each is
// only indirect.
func goModRequires(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mods := map[string]bool{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "require (":
			in = true
			continue
		case line == ")":
			in = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !in:
			continue
		}
		fields := strings.Fields(line)
		if len(fields) >= 2 {
			mods[fields[0]] = strings.HasSuffix(line, "// indirect")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(mods) == 0 {
		t.Fatal("go.mod requires nothing: not the repository's go.mod")
	}
	return mods
}

// TestDependencyLicences holds README's dependency table to go.mod: every
// module go.mod requires directly has a row (indirect ones may), every row
// names a module go.mod requires, and the licence a row names is the one in
// the module's own licence file in the module cache.
func TestDependencyLicences(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Licence and dependencies\n")
	if !ok {
		t.Fatal("README has no 'Licence and dependencies' section")
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	requires := goModRequires(t)
	row := regexp.MustCompile(`^\| (.+?) \| (.+?) \| .* \|$`)
	module := regexp.MustCompile("`([^`]+)`")
	licences := map[string]string{} // module -> the licence its row names
	for _, line := range strings.Split(section, "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil || m[1] == "module" || strings.HasPrefix(m[1], "---") {
			continue
		}
		for _, mod := range module.FindAllStringSubmatch(m[1], -1) {
			licences[mod[1]] = m[2]
		}
	}
	for mod, indirect := range requires {
		if _, ok := licences[mod]; !ok && !indirect {
			t.Errorf("go.mod requires %s, and README's dependency table has no row for it", mod)
		}
	}
	for mod, named := range licences {
		if _, ok := requires[mod]; !ok {
			t.Errorf("README's dependency table names %s, which go.mod does not require", mod)
			continue
		}
		// The licence boardd takes the module under is the last one the
		// cell names that this test knows ("EPL-2.0 or EDL-1.0 ...,
		// boardd takes it under EDL-1.0").
		var id string
		for _, word := range regexp.MustCompile(`[A-Za-z0-9.-]+`).FindAllString(named, -1) {
			if _, ok := licenceMarks[word]; ok {
				id = word
			}
		}
		if id == "" {
			t.Errorf("README names %s's licence %q, none of the Apache-2.0-compatible licences this test knows", mod, named)
			continue
		}
		t.Run(mod, func(t *testing.T) {
			text := moduleLicence(t, mod, id)
			for _, mark := range licenceMarks[id] {
				if !strings.Contains(text, mark) {
					t.Errorf("README says %s is under %s, but its licence file lacks %q", mod, id, mark)
				}
			}
			if id == "BSD-2-Clause" && strings.Contains(text, "Neither the name") {
				t.Errorf("README says %s is under BSD-2-Clause, but its licence has the third clause", mod)
			}
		})
	}
}

// moduleLicence reads the licence file of module mod at the version go.mod
// requires, from the module cache (go list downloads it if need be).
func moduleLicence(t *testing.T, mod, id string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go on the PATH to find module %s with: %v", mod, err)
	}
	out, err := exec.Command(goTool, "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("module %s is not in the module cache (go mod download): %v", mod, err)
	}
	names := []string{"LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING"}
	if id == "EDL-1.0" {
		names = []string{"edl-v10"}
	}
	for _, name := range names {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			return string(data)
		}
	}
	t.Fatalf("module %s (%s) has no licence file (%s)", mod, dir, strings.Join(names, ", "))
	return ""
}

// TestLicenceIsApache checks that LICENSE is the Apache License 2.0 in
// full (its preamble, the nine sections and the appendix), as README and
// NOTICE say.
func TestLicenceIsApache(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{
		"Apache License\n                           Version 2.0, January 2004",
		"1. Definitions.", "5. Submission of Contributions.", "9. Accepting Warranty or Additional Liability.",
		"END OF TERMS AND CONDITIONS", "APPENDIX: How to apply the Apache License to your work.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
	notice, err := os.ReadFile(filepath.Join(repoRoot, "NOTICE"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(notice), "The boardd authors") {
		t.Errorf("NOTICE does not name the copyright holders, the boardd authors:\n%s", notice)
	}
}
