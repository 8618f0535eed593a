package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is boardd's version when the build names one:
//
//	go build -ldflags "-X main.version=v1.2.0" ./cmd/boardd
//
// It is the one package-level variable boardd has, the exception the
// rule allows: the linker can set nothing else. Without it the version is
// the module's, from the build information.
var version = ""

// buildInfo is what `boardd version` prints.
type buildInfo struct {
	Version  string // v1.2.0, a pseudo-version, or "(devel)"
	Commit   string // the commit built, "" if unknown
	Modified bool   // the work tree had changes not committed
	Date     string // the commit's time (RFC 3339), "" if unknown
	Go       string // the Go release and target: go1.26 linux/arm64
}

// readBuildInfo reads the build information Go stamps into the binary
// (runtime/debug.ReadBuildInfo: the module version, vcs.revision,
// vcs.time, vcs.modified); version, when set, wins over the module's.
func readBuildInfo() buildInfo {
	b := buildInfo{Version: "(devel)", Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" {
			b.Version = v
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.time":
				b.Date = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	if version != "" {
		b.Version = version
	}
	return b
}

func (b buildInfo) write(env *environment) {
	commit, date := b.Commit, b.Date
	if commit == "" {
		commit = "unknown (built without version control information: use 'go build' in a clone)"
	} else if b.Modified {
		commit += " (with changes not committed)"
	}
	if date == "" {
		date = "unknown"
	} else {
		date += " (the commit's)"
	}
	fmt.Fprintf(env.stdout, "boardd %s\ncommit %s\ndate   %s\ngo     %s\n", b.Version, commit, date, b.Go)
}

// runVersion is `boardd version` and `boardd --version`.
func runVersion(ctx context.Context, env *environment, args []string) int {
	h := &helpText{
		name:  "version",
		usage: []string{"version", "--version"},
		about: "Prints the version, the commit it was built from (and whether the work tree had changes), the commit's date and the Go release, from the build information Go stamps into the binary. A release build may name its version with -ldflags \"-X main.version=v1.2.0\".",
		examples: []string{
			"boardd --version",
		},
	}
	fs := h.flags()
	if code, ok := h.parse(env, fs, args); !ok {
		return code
	}
	if code, ok := h.noArgs(env, fs); !ok {
		return code
	}
	readBuildInfo().write(env)
	return 0
}
