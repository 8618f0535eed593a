package systemd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// verify runs systemd-analyze verify on a copy of unit whose ExecStart
// names an executable that exists here, and returns what it said.
func verify(t *testing.T, unit string) (string, error) {
	t.Helper()
	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed (CI installs systemd): the unit is not verified")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	unit = strings.ReplaceAll(unit, "/usr/local/bin/boardd", self)
	path := filepath.Join(t.TempDir(), "boardd.service")
	if err := os.WriteFile(path, []byte(unit), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "verify", path)
	cmd.Env = append(os.Environ(), "SYSTEMD_LOG_COLOR=0", "SYSTEMD_PAGER=")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func readUnit(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("boardd.service")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestUnitVerifies(t *testing.T) {
	out, err := verify(t, readUnit(t))
	if err != nil || out != "" {
		t.Errorf("systemd-analyze verify boardd.service: %v\n%s", err, out)
	}
}

// TestVerifyCatchesMistakes makes sure the check above can fail:
// systemd-analyze exits 0 on some faults and only says so.
func TestVerifyCatchesMistakes(t *testing.T) {
	unit := strings.Replace(readUnit(t), "Type=notify", "Type=notifyy", 1)
	unit = strings.Replace(unit, "WatchdogSec=", "WatchdogSek=", 1)
	out, err := verify(t, unit)
	if err == nil && out == "" {
		t.Error("a unit with a bad type and an unknown key passed verify")
	}
}

// settings reads the unit's KEY=VALUE lines by section.
func settings(t *testing.T) map[string][]string {
	m := map[string][]string{}
	section := ""
	s := bufio.NewScanner(strings.NewReader(readUnit(t)))
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '[':
			section = strings.Trim(line, "[]")
		default:
			k, v, _ := strings.Cut(line, "=")
			m[section+"."+k] = append(m[section+"."+k], v)
		}
	}
	return m
}

func TestUnitSettings(t *testing.T) {
	m := settings(t)
	want := map[string]string{
		"Service.Type":                "notify",
		"Service.Restart":             "on-failure",
		"Service.StateDirectory":      "boardd",
		"Service.ProtectSystem":       "strict",
		"Service.NoNewPrivileges":     "yes",
		"Service.DevicePolicy":        "closed",
		"Service.SupplementaryGroups": "spi i2c gpio dialout audio",
		"Service.ExecReload":          "/bin/kill -HUP $MAINPID",
		"Install.WantedBy":            "multi-user.target",
	}
	for k, v := range want {
		if got := m[k]; len(got) != 1 || got[0] != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if w := m["Service.WatchdogSec"]; len(w) != 1 || !regexp.MustCompile(`^[1-9][0-9]*s$`).MatchString(w[0]) {
		t.Errorf("WatchdogSec = %q, want a number of seconds", w)
	}
	if !strings.Contains(strings.Join(m["Unit.After"], " "), "time-sync.target") {
		t.Error("not ordered after time-sync.target")
	}
	for _, k := range []string{"Unit.Wants", "Unit.Requires", "Unit.Requisite", "Unit.BindsTo"} {
		if strings.Contains(strings.Join(m[k], " "), "time-sync.target") {
			t.Errorf("%s pulls in time-sync.target: a Pi without network would not start", k)
		}
	}
	devices := strings.Join(m["Service.DeviceAllow"], "|")
	for _, d := range []string{"char-spidev rw", "char-i2c rw", "char-gpiochip rw", "char-ttyACM rw", "char-ttyUSB rw", "char-ttyGS rw", "char-alsa rw"} {
		if !strings.Contains(devices, d) {
			t.Errorf("DeviceAllow has no %q", d)
		}
	}
	for _, k := range []string{"Service.PrivateDevices", "Service.ProtectClock"} {
		if v := m[k]; len(v) > 0 && v[0] == "yes" {
			t.Errorf("%s=yes would hide the board's devices or forbid reading the clock status", k)
		}
	}
}

// TestUdevRules checks each rule names its devices by subsystem and kernel
// name and gives them the group the unit runs with; udevadm verify checks
// the syntax where this systemd has it.
func TestUdevRules(t *testing.T) {
	data, err := os.ReadFile("99-boardd.rules")
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]bool{}
	for _, g := range strings.Fields(settings(t)["Service.SupplementaryGroups"][0]) {
		groups[g] = true
	}
	assign := regexp.MustCompile(`^([A-Z]+(\{[^}]+\})?)(==|!=|=|\+=|:=)"([^"]*)"$`)
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		keys := map[string]string{}
		for _, part := range strings.Split(line, ", ") {
			m := assign.FindStringSubmatch(part)
			if m == nil {
				t.Errorf("line %d: %q is not KEY==\"value\" or KEY=\"value\"", i+1, part)
				continue
			}
			keys[m[1]+m[3]] = m[4]
		}
		if keys["SUBSYSTEM=="] == "" || keys["KERNEL=="] == "" {
			t.Errorf("line %d: a rule must match SUBSYSTEM and KERNEL", i+1)
		}
		if g := keys["GROUP="]; !groups[g] {
			t.Errorf("line %d: group %q is not one the unit runs with", i+1, g)
		}
		if keys["MODE="] != "0660" {
			t.Errorf("line %d: mode %q, want 0660", i+1, keys["MODE="])
		}
		seen[keys["SUBSYSTEM=="]] = true
	}
	for _, s := range []string{"spidev", "i2c-dev", "gpio", "tty"} {
		if !seen[s] {
			t.Errorf("no rule for %s", s)
		}
	}
	if tool, err := exec.LookPath("udevadm"); err == nil {
		if exec.Command(tool, "verify", "--help").Run() == nil {
			if out, err := exec.Command(tool, "verify", "99-boardd.rules").CombinedOutput(); err != nil {
				t.Errorf("udevadm verify: %v\n%s", err, out)
			}
		} else {
			t.Log("udevadm has no verify (systemd < 254): syntax checked here only")
		}
	}
}
