package main

import (
	"strings"
	"testing"
)

// `boardd config check` prints every fault of a file at once, as its help
// says: the values, the pins used twice and the engine that is not there,
// each line naming its key, after the file's name and the count.
func TestConfigCheckPrintsEveryFault(t *testing.T) {
	for _, c := range []struct {
		name, file string
		want       []string
	}{
		{"values, a shared pin and a missing engine", `laws = "nosuch"
listen = "nope"
log_level = "loud"
board_id = "bad id!"
state_dir = "relative"
tls_cert = "/etc/boardd/console.pem"
[buttons]
white_clock = "GPIO5"
black_clock = "GPIO5"
[engine]
path = "/nonexistent/engine"
elo = 1500
skill = 3
[lichess]
color = "white"
`, []string{"board_id = ", "laws = ", "listen = ", "log_level = ", "state_dir = ", "engine.skill = ", "lichess.color = ",
			"tls_key = ", `buttons.white_clock = "GPIO5": expected a GPIO no other part uses`, `engine.path "/nonexistent/engine": no engine there`}},
		{"what the file names beyond itself", `tls_cert = "/nonexistent/console.pem"
tls_key = "/nonexistent/console.key"
hall = "mqtt://hall.club.lan?verify-key=/nonexistent/verify.pem"
[engine]
path = "/nonexistent/engine"
`, []string{"console: TLS certificate /nonexistent/console.pem", "--hall: hall verify key", `engine.path "/nonexistent/engine"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "boardd.toml", c.file)
			code, out, errs := runHW(t, "config", "check", path)
			lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
			if code != 2 || out != "" || len(lines) != len(c.want)+1 {
				t.Fatalf("exit %d, stdout %q, stderr %d lines; want 2, nothing, %d lines:\n%s", code, out, len(lines), len(c.want)+1, errs)
			}
			if head := "boardd: " + path + ": "; !strings.HasPrefix(lines[0], head) || !strings.HasSuffix(lines[0], " faults:") {
				t.Errorf("first line %q, want %q and the count", lines[0], head)
			}
			for i, want := range c.want {
				if !strings.HasPrefix(lines[i+1], want) {
					t.Errorf("fault %d: %q, want it to begin %q", i+1, lines[i+1], want)
				}
			}
		})
	}
}
