package packaging

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// debUnderTest is the amd64 package packaging/build made, named by
// $BOARDD_DEB (.ci/run sets it after building the packages); without it
// the test is skipped, saying how to run it.
func debUnderTest(t *testing.T) string {
	t.Helper()
	deb := os.Getenv("BOARDD_DEB")
	if deb == "" {
		t.Skip("BOARDD_DEB is not set: run packaging/build amd64, then BOARDD_DEB=$PWD/dist/boardd_..._amd64.deb go test ./packaging (.ci/run does)")
	}
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Fatalf("dpkg-deb is needed to read %s: %v", deb, err)
	}
	abs, err := filepath.Abs(deb)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func run(t *testing.T, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	if env != nil {
		cmd.Env = env
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// TestDebInstallsInAThrowAwayRoot unpacks the package into a temporary
// root as dpkg would install it, checks that every file is where the unit,
// the udev rules and the configuration expect it, and runs the installed
// boardd: version, and config check on the installed default configuration.
func TestDebInstallsInAThrowAwayRoot(t *testing.T) {
	deb := debUnderTest(t)
	root := t.TempDir()
	if out, err := run(t, nil, "dpkg-deb", "-x", deb, root); err != nil {
		t.Fatalf("dpkg-deb -x %s: %v\n%s", deb, err, out)
	}
	control := filepath.Join(t.TempDir(), "DEBIAN")
	if out, err := run(t, nil, "dpkg-deb", "-e", deb, control); err != nil {
		t.Fatalf("dpkg-deb -e %s: %v\n%s", deb, err, out)
	}

	files := []struct {
		path string
		mode os.FileMode
		has  []string // what the file must say
	}{
		{"usr/bin/boardd", 0o755, nil},
		{"usr/lib/systemd/system/boardd.service", 0o644, []string{"ExecStart=/usr/bin/boardd run", "SupplementaryGroups=spi i2c gpio dialout audio", "DeviceAllow=char-alsa rw", "file:/usr/share/doc/boardd/install.md"}},
		{"usr/lib/udev/rules.d/99-boardd.rules", 0o644, []string{`GROUP="spi"`, `GROUP="i2c"`, `GROUP="gpio"`, `GROUP="dialout"`}},
		{"usr/lib/sysusers.d/boardd.conf", 0o644, []string{"g spi", "g i2c", "g gpio"}},
		{"etc/boardd/boardd.toml", 0o644, []string{`laws = "fide2023"`, `wiring = "sim"`}},
		{"usr/share/doc/boardd/copyright", 0o644, []string{"License: Apache-2.0"}},
		{"usr/share/doc/boardd/install.md", 0o644, nil},
	}
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(root, f.path))
		if err != nil {
			t.Errorf("the package does not install /%s: %v", f.path, err)
			continue
		}
		if fi.Mode().Perm() != f.mode {
			t.Errorf("/%s has mode %v, want %v", f.path, fi.Mode().Perm(), f.mode)
		}
		data, _ := os.ReadFile(filepath.Join(root, f.path))
		for _, want := range f.has {
			if !strings.Contains(string(data), want) {
				t.Errorf("/%s does not say %q", f.path, want)
			}
		}
	}
	unit, _ := os.ReadFile(filepath.Join(root, "usr/lib/systemd/system/boardd.service"))
	if strings.Contains(string(unit), "/usr/local/") {
		t.Errorf("the packaged unit still names /usr/local/:\n%s", unit)
	}

	conffiles, err := os.ReadFile(filepath.Join(control, "conffiles"))
	if err != nil || !strings.Contains(string(conffiles), "/etc/boardd/boardd.toml") {
		t.Errorf("/etc/boardd/boardd.toml is not a conffile (an upgrade would overwrite the owner's configuration): %v\n%s", err, conffiles)
	}

	bin := filepath.Join(root, "usr/bin/boardd")
	version, err := run(t, nil, bin, "version")
	if err != nil {
		t.Fatalf("boardd version: %v\n%s", err, version)
	}
	pkgVersion, err := run(t, nil, "dpkg-deb", "-f", deb, "Version")
	if err != nil {
		t.Fatal(err)
	}
	// The binary's version is the package's with a v before it and ~ read
	// as - (0.0.0~git20261127.abc1234 is v0.0.0-git20261127.abc1234).
	want := "boardd v" + strings.ReplaceAll(strings.TrimSpace(pkgVersion), "~", "-") + "\n"
	if !strings.HasPrefix(version, want) {
		t.Errorf("boardd version printed\n%swant its first line %q", version, want)
	}

	// The unit as packaged passes systemd-analyze verify, its ExecStart
	// pointed at the binary just installed.
	if tool, err := exec.LookPath("systemd-analyze"); err == nil {
		copyPath := filepath.Join(t.TempDir(), "boardd.service")
		if err := os.WriteFile(copyPath, []byte(strings.ReplaceAll(string(unit), "/usr/bin/boardd", bin)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := run(t, append(os.Environ(), "SYSTEMD_LOG_COLOR=0", "SYSTEMD_PAGER="), tool, "verify", copyPath)
		if err != nil || strings.TrimSpace(out) != "" {
			t.Errorf("systemd-analyze verify on the packaged unit: %v\n%s", err, out)
		}
	} else {
		t.Log("systemd-analyze not installed: the packaged unit is not verified (CI installs systemd)")
	}

	state := t.TempDir()
	env := append(os.Environ(), "STATE_DIRECTORY="+state, "XDG_STATE_HOME="+state)
	out, err := run(t, env, bin, "config", "check", filepath.Join(root, "etc/boardd/boardd.toml"))
	if err != nil || !strings.Contains(out, ": ok:") {
		t.Errorf("boardd config check on the installed configuration: %v\n%s", err, out)
	}
}

// TestMaintainerScriptsStartNothing runs the package's postinst and prerm
// with every system tool they may call replaced by a stub that records its
// arguments: a fresh install makes the groups and tells the next steps,
// and no script enables or starts the service.
func TestMaintainerScriptsStartNothing(t *testing.T) {
	deb := debUnderTest(t)
	control := filepath.Join(t.TempDir(), "DEBIAN")
	if out, err := run(t, nil, "dpkg-deb", "-e", deb, control); err != nil {
		t.Fatalf("dpkg-deb -e: %v\n%s", err, out)
	}
	stubs := t.TempDir()
	calls := filepath.Join(t.TempDir(), "calls")
	for _, tool := range []string{"systemd-sysusers", "addgroup", "udevadm", "systemctl"} {
		script := "#!/bin/sh\necho \"" + tool + " $*\" >>" + calls + "\n"
		if err := os.WriteFile(filepath.Join(stubs, tool), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "PATH="+stubs+":/usr/bin:/bin")

	cases := []struct {
		script, args string
		wantCall     string // a call the script must make ("" for none)
		wantOut      string // what it must print ("" for nothing in particular)
	}{
		{"postinst", "configure", "systemd-sysusers boardd.conf", "boardd is installed but not started"},
		{"postinst", "configure 0.1.0", "systemd-sysusers boardd.conf", ""},
		{"prerm", "remove", "", ""},
		{"prerm", "upgrade 0.2.0", "", ""},
	}
	startsService := regexp.MustCompile(`^systemctl (enable|start|restart|reenable)\b`)
	for _, c := range cases {
		t.Run(c.script+" "+c.args, func(t *testing.T) {
			os.Remove(calls)
			out, err := run(t, env, filepath.Join(control, c.script), strings.Fields(c.args)...)
			if err != nil {
				t.Fatalf("%s %s: %v\n%s", c.script, c.args, err, out)
			}
			made, _ := os.ReadFile(calls)
			sc := bufio.NewScanner(bytes.NewReader(made))
			found := c.wantCall == ""
			for sc.Scan() {
				if startsService.MatchString(sc.Text()) {
					t.Errorf("%s %s starts the service: %s", c.script, c.args, sc.Text())
				}
				found = found || sc.Text() == c.wantCall
			}
			if !found {
				t.Errorf("%s %s did not call %q; it called:\n%s", c.script, c.args, c.wantCall, made)
			}
			if !strings.Contains(out, c.wantOut) {
				t.Errorf("%s %s printed\n%s\nwant %q", c.script, c.args, out, c.wantOut)
			}
			if c.args != "configure" && strings.Contains(out, "not started") {
				t.Errorf("%s %s tells the first-install steps on an upgrade:\n%s", c.script, c.args, out)
			}
		})
	}
}
