package broker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/mosquittotest"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	for _, d := range []string{first, second} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) string {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write(filepath.Join(second, PasswordFile), "from-second\n")
	other := write(filepath.Join(dir, "other-password"), "from-param\n")
	empty := write(filepath.Join(dir, "empty"), "\n")
	// Secrets others may read, where boardd looks by itself and named.
	open := filepath.Join(dir, "open")
	if err := os.MkdirAll(open, 0o700); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(open, PasswordFile), "from-open\n")
	os.Chmod(filepath.Join(open, PasswordFile), 0o644)
	groupPassword := write(filepath.Join(dir, "group-password"), "from-group\n")
	os.Chmod(groupPassword, 0o640)
	notPEM := write(filepath.Join(dir, "ca.txt"), "not a certificate\n")
	ca, err := mosquittotest.NewCA(dir, "t")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := ca.Client("b1")
	if err != nil {
		t.Fatal(err)
	}
	openKey := write(filepath.Join(dir, "open-key.pem"), string(must(os.ReadFile(pair.KeyFile))))
	os.Chmod(openKey, 0o644)
	caAsKey := write(filepath.Join(dir, "ca-as-key.pem"), string(must(os.ReadFile(ca.File))))

	for _, c := range []struct {
		name, url, user string
		dirs            []string
		extra           []string
		// want: the URL without credentials, the user, the password; tls
		// whether TLS is set up.
		want, wantUser, wantPassword string
		tls                          bool
		err                          string
	}{
		{name: "defaults", url: "mqtt://hall.local", user: "b1", want: "mqtt://hall.local:1883", wantUser: "b1"},
		{name: "TLS port", url: "mqtts://hall.local", want: "mqtts://hall.local:8883", tls: true},
		{name: "ws", url: "ws://hall.local/mqtt", want: "ws://hall.local:80/mqtt"},
		{name: "user in the URL", url: "mqtt://board-7@10.0.0.2:1884", user: "b1", want: "mqtt://10.0.0.2:1884", wantUser: "board-7"},
		{name: "password found in the second directory", url: "mqtt://h:1", user: "b1", dirs: []string{first, second}, want: "mqtt://h:1", wantUser: "b1", wantPassword: "from-second"},
		{name: "password file named", url: "mqtt://h:1?password-file=" + other, user: "b1", dirs: []string{second}, want: "mqtt://h:1", wantUser: "b1", wantPassword: "from-param"},
		{name: "extra parameter kept", url: "mqtt://h:1?token-file=/x", extra: []string{"token-file"}, want: "mqtt://h:1"},
		{name: "client certificate", url: "mqtts://h:1?ca=" + ca.File + "&cert=" + pair.CertFile + "&key=" + pair.KeyFile, want: "mqtts://h:1", tls: true},
		{name: "password in the URL", url: "mqtt://b1:secret@h:1", err: "shows in the process list"},
		{name: "unknown parameter", url: "mqtt://h:1?pasword-file=x", err: `unknown parameter "pasword-file"`},
		{name: "no host", url: "mqtt:///x", err: "want mqtt://host:port"},
		{name: "scheme", url: "http://h:1", err: `scheme "http"`},
		{name: "missing file", url: "mqtt://h:1?password-file=" + filepath.Join(dir, "nope"), user: "b1", err: "no such file"},
		{name: "empty password", url: "mqtt://h:1?password-file=" + empty, user: "b1", err: "want the password on one line"},
		{name: "password without a user", url: "mqtt://h:1?password-file=" + other, err: "no user name"},
		{name: "a CA for plain MQTT", url: "mqtt://h:1?ca=" + ca.File, err: "use mqtts://"},
		{name: "a CA file without a certificate", url: "mqtts://h:1?ca=" + notPEM, err: "no PEM certificate"},
		{name: "a certificate without its key", url: "mqtts://h:1?cert=" + pair.CertFile, err: "but no key"},
		{name: "a key without its certificate", url: "mqtts://h:1?key=" + pair.KeyFile, err: "but no client certificate"},
		{name: "password file readable by others in a directory", url: "mqtt://h:1", user: "b1", dirs: []string{open, second}, err: "has mode 0644: others may read it; make it readable by boardd alone (chmod 600 " + filepath.Join(open, PasswordFile) + ")"},
		{name: "password file readable by the group, named", url: "mqtt://h:1?password-file=" + groupPassword, user: "b1", err: "has mode 0640"},
		{name: "a key readable by others", url: "mqtts://h:1?cert=" + pair.CertFile + "&key=" + openKey, err: "client key " + openKey + " has mode 0644"},
		{name: "a key that is not the certificate's", url: "mqtts://h:1?cert=" + pair.CertFile + "&key=" + caAsKey, err: "with key"},
	} {
		cfg, err := Load(Options{URL: c.url, Username: c.user, Dirs: c.dirs, Extra: c.extra})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := cfg.URL.String(); got != c.want {
			t.Errorf("%s: URL %s, want %s", c.name, got, c.want)
		}
		if cfg.Username != c.wantUser || string(cfg.Password) != c.wantPassword {
			t.Errorf("%s: user %q password %q, want %q %q", c.name, cfg.Username, cfg.Password, c.wantUser, c.wantPassword)
		}
		if (cfg.TLS != nil) != c.tls {
			t.Errorf("%s: TLS %v, want %v", c.name, cfg.TLS != nil, c.tls)
		}
		if strings.Contains(cfg.Redacted(), "from-") {
			t.Errorf("%s: the password shows in %s", c.name, cfg.Redacted())
		}
	}
}

func TestBackoff(t *testing.T) {
	b := backoff(100*time.Millisecond, time.Second)
	want := []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}
	for attempt, w := range want {
		if got := b(attempt); got != w {
			t.Errorf("attempt %d: %v, want %v", attempt, got, w)
		}
	}
}

func must(data []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return data
}
