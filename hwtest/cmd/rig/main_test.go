package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// The rig's command line: help is asked for (stdout, 0); a missing line, a
// missing scenario, both lines, a bad flag or log level, an unreadable
// scenario are usage errors (stderr, 2), before any line is opened.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{args: []string{"-h"}, code: 0, stdout: "usage: rig --pty LINK"},
		{args: []string{"--help"}, code: 0, stdout: "-connect-timeout"},
		{args: []string{"x.jsonl"}, code: 2, stderr: "--pty LINK or --port PATH"},
		{args: []string{"--pty", "/tmp/x"}, code: 2, stderr: "no scenario to play"},
		{args: []string{"--pty", "/tmp/x", "--port", "/dev/ttyUSB0", "x.jsonl"}, code: 2, stderr: "not both"},
		{args: []string{"--no-such-flag"}, code: 2, stderr: "flag provided but not defined"},
		{args: []string{"--pty", "/tmp/x", "--log-level", "loud", "x.jsonl"}, code: 2, stderr: `log level "loud"`},
		{args: []string{"--pty", "/tmp/x", "no-such-scenario.jsonl"}, code: 2, stderr: "no-such-scenario.jsonl"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out, errs bytes.Buffer
			code := run(context.Background(), c.args, &out, &errs, func(string) string { return "" })
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, errs.String())
			}
			if c.stdout != "" && !strings.Contains(out.String(), c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, out.String())
			}
			if c.stderr != "" && !strings.Contains(errs.String(), c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, errs.String())
			}
			if c.code == 2 && out.Len() > 0 {
				t.Errorf("a usage error wrote to stdout: %q", out.String())
			}
		})
	}
}
