package daemon

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boardd/boardd/console"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/journal"
	"github.com/boardd/boardd/journal/journaltest"
	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

// syncLog is the daemon's log, written by its goroutines, read by the test.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// running is a daemon run in this process for a test.
type running struct {
	log  *syncLog
	url  string // the console's, without the final slash
	done chan error
	stop context.CancelFunc
}

var consoleURL = regexp.MustCompile(`msg=console url=(\S+)`)

// runDaemon runs the board until the test ends, and waits for its console.
func runDaemon(t *testing.T, o Options) *running {
	t.Helper()
	r := &running{log: &syncLog{}, done: make(chan error, 1)}
	o.Stderr, o.Getenv = r.log, func(string) string { return "" }
	if o.Stdin == nil {
		o.Stdin = strings.NewReader("")
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.stop = cancel
	go func() { r.done <- Run(ctx, o) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.done:
		case <-time.After(20 * time.Second):
			t.Error("the daemon did not stop")
		}
		if t.Failed() {
			t.Logf("the daemon's log:\n%s", r.log.String())
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if m := consoleURL.FindStringSubmatch(r.log.String()); m != nil {
			r.url = strings.TrimSuffix(m[1], "/")
			return r
		}
		select {
		case err := <-r.done:
			t.Fatalf("the daemon stopped: %v\n%s", err, r.log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no console in the log:\n%s", r.log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// moveLines are the hand events of a few moves, as a trace for --input.
func moveLines(t *testing.T, uci ...string) []byte {
	t.Helper()
	p := journaltest.NewPlayer(0, journaltest.Timing{Step: 60 * time.Millisecond, Pause: 600 * time.Millisecond})
	if err := p.Move(uci...); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, l := range p.Lines {
		b.Write(trace.Append(nil, l))
	}
	return b.Bytes()
}

// journalMoves returns the moves the journal holds.
func journalMoves(t *testing.T, dir string) []string {
	t.Helper()
	g, err := journal.Read(dir)
	if err != nil || g == nil {
		return nil
	}
	var out []string
	for _, r := range g.Records {
		if r.Kind == journal.KindReport && r.Report.Type == report.Move {
			out = append(out, r.Report.UCI)
		}
	}
	return out
}

// Issue 22, point 7: far more event streams than the console keeps are
// asked for, from many addresses, while the board's own inputs play a
// game. The streams past the bound are refused (503) or their connections
// closed, the console still answers, and every move lands in the journal.
func TestStreamFloodKeepsTheBoardRuling(t *testing.T) {
	dir := t.TempDir()
	in, feed := io.Pipe()
	r := runDaemon(t, Options{StateDir: dir, Listen: "127.0.0.1:0", BoardID: "flood", Input: "-", Stdin: in})
	t.Cleanup(func() { feed.Close() })
	events := r.url + "/api/boards/flood/events"

	const flood = 2000
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	answers := map[string]int{}
	answered := 0
	for i := range flood {
		from := net.IPv4(127, 0, byte(2+i/200), byte(1+i%200))
		wg.Go(func() {
			d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: from}, Timeout: 10 * time.Second}
			c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, events, nil)
			res, err := c.Do(req)
			what := "connection closed"
			if err == nil {
				what = strconv.Itoa(res.StatusCode)
			}
			mu.Lock()
			answers[what]++
			answered++
			mu.Unlock()
			if err == nil {
				io.Copy(io.Discard, res.Body) // until the test ends
				res.Body.Close()
			}
		})
	}
	// The board's own hands play while the streams pour in.
	uci := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"}
	go feed.Write(moveLines(t, uci...))

	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n := answered
		mu.Unlock()
		if n == flood && len(journalMoves(t, dir)) == len(uci) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s: %d of %d streams answered, the journal holds %v", n, flood, journalMoves(t, dir))
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The console answers with the flood still open.
	start := time.Now()
	res, err := http.Get(r.url + "/api/boards/flood/state")
	if err != nil {
		t.Fatalf("the console during the flood: %v", err)
	}
	res.Body.Close()
	took := time.Since(start)
	if res.StatusCode != http.StatusOK {
		t.Errorf("the console's state during the flood: %d", res.StatusCode)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mu.Lock()
	t.Logf("%d streams asked for: %v; the state answered in %v; heap in use %.1f MiB (the test's clients included)", flood, answers, took, float64(ms.HeapInuse)/(1<<20))
	if answers["200"] > console.DefaultMaxStreams {
		t.Errorf("%d streams open, want at most %d", answers["200"], console.DefaultMaxStreams)
	}
	if answers["503"] == 0 {
		t.Errorf("no stream refused with 503: %v", answers)
	}
	mu.Unlock()
	if got := journalMoves(t, dir); strings.Join(got, " ") != strings.Join(uci, " ") {
		t.Errorf("the journal holds %v, want %v", got, uci)
	}
	if !strings.Contains(r.log.String(), "event streams refused") {
		t.Error("the refused streams are not in the log")
	}
	cancel()
	wg.Wait()
}

// testCA makes a club CA and the board's certificate (for 127.0.0.1 and
// localhost), and returns the files and a pool trusting the CA.
func testCA(t *testing.T) (mosquittotest.Pair, *x509.CertPool) {
	t.Helper()
	dir := t.TempDir()
	ca, err := mosquittotest.NewCA(dir, "club")
	if err != nil {
		t.Fatal(err)
	}
	pair, err := ca.Server("board-01")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ca.File)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(data)
	return pair, pool
}

const noTLSWarning = "WITHOUT TLS"

// Issue 22, point 8: a board (simulated or real) whose console listens
// beyond this machine without TLS warns loudly; with a certificate and key
// it serves HTTPS and does not; on the loopback it says nothing.
func TestConsoleExposure(t *testing.T) {
	pair, pool := testCA(t)
	cfg := writeFile(t, "boardd.toml", "tls_cert = \""+pair.CertFile+"\"\ntls_key = \""+pair.KeyFile+"\"\n")
	for _, c := range []struct {
		name    string
		o       Options
		warn    bool
		https   bool
		warning string
	}{
		{"a real board on every interface", Options{Listen: "0.0.0.0:0", Sensor: "none"}, true, false, ""},
		{"a simulated board on every interface", Options{Listen: "0.0.0.0:0"}, true, false, "anyone who reaches it can play"},
		{"a real board on the loopback", Options{Listen: "127.0.0.1:0", Sensor: "none"}, false, false, ""},
		{"a real board on every interface with TLS flags", Options{Listen: "0.0.0.0:0", Sensor: "none", TLSCert: pair.CertFile, TLSKey: pair.KeyFile}, false, true, ""},
		{"a real board with TLS from the file", Options{Config: cfg, Listen: "0.0.0.0:0", Sensor: "none"}, false, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.o.StateDir = t.TempDir()
			r := runDaemon(t, c.o)
			logs := r.log.String()
			if got := strings.Contains(logs, noTLSWarning); got != c.warn {
				t.Errorf("warned %v, want %v:\n%s", got, c.warn, logs)
			}
			if c.warning != "" && !strings.Contains(logs, c.warning) {
				t.Errorf("no warning %q", c.warning)
			}
			if got := strings.HasPrefix(r.url, "https://"); got != c.https {
				t.Fatalf("console at %s, want HTTPS %v", r.url, c.https)
			}
			if !c.https {
				return
			}
			// The URL names the certificate's host; the board answers on
			// the loopback over HTTPS, and the token is accepted.
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(r.url, "https://"))
			hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "localhost"}}, Timeout: 10 * time.Second}
			res, err := hc.Get("https://127.0.0.1:" + port + "/api/laws")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK || !strings.Contains(logs, "console: HTTPS") {
				t.Errorf("HTTPS: %d; log says HTTPS: %v", res.StatusCode, strings.Contains(logs, "console: HTTPS"))
			}
		})
	}
}

// Issue 22, point 10: what `boardd config check` passes, `boardd run` takes,
// and what run refuses is a usage error (exit 2) found before the console
// starts (and shows its token): an absurd time control, a hall URL with a
// password, a certificate without its key or that is not one. A huge
// value is not echoed whole.
func TestCheckAgreesWithRun(t *testing.T) {
	pair, _ := testCA(t)
	huge := strings.Repeat("x", 20<<20)
	for _, c := range []struct {
		name, file string
		want       string
	}{
		{"absurd time control", `time_control = "99999999999999999999"`, "too large for seconds"},
		{"hall URL with a password", `hall = "mqtt://board:secret@hall.club.lan"`, "a password in the URL"},
		{"a hall URL parameter of old", `hall = "mqtt://hall.club.lan?token-file=/etc/boardd/hall-token"`, "token-file= is no longer used"},
		{"hall verify key missing", `hall = "mqtt://hall.club.lan?verify-key=/nonexistent/hall-verify-key.pem"`, "hall verify key"},
		{"certificate without key", `tls_cert = "` + pair.CertFile + `"`, "tls_key"},
		{"certificate and key that are no pair", `tls_cert = "` + pair.KeyFile + `"` + "\n" + `tls_key = "` + pair.KeyFile + `"`, "want PEM files"},
		{"huge value", `laws = "` + huge + `"`, "(20971520 bytes)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, "boardd.toml", c.file+"\n")
			_, checkErr := Check(Options{Config: path})
			var ue UsageError
			if !errors.As(checkErr, &ue) || !strings.Contains(checkErr.Error(), c.want) {
				t.Errorf("check: %v, want a usage error saying %q", clipped(checkErr), c.want)
			}
			if checkErr != nil && len(checkErr.Error()) > 4096 {
				t.Errorf("check's error is %d bytes long", len(checkErr.Error()))
			}
			var log bytes.Buffer
			dir := t.TempDir()
			err := Run(context.Background(), Options{Config: path, StateDir: dir, Listen: "127.0.0.1:0", Stderr: &log})
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("run: %v, want a usage error saying %q", clipped(err), c.want)
			}
			if _, err := os.Stat(filepath.Join(dir, console.TokenFile)); err == nil || strings.Contains(log.String(), "token") {
				t.Errorf("run made or logged the arbiter token before refusing:\n%s", clipped(errors.New(log.String())))
			}
		})
	}
	// A file check passes, run takes.
	path := writeFile(t, "boardd.toml", `time_control = "fide-rapid"`+"\n"+`tls_cert = "`+pair.CertFile+`"`+"\n"+`tls_key = "`+pair.KeyFile+`"`+"\n")
	if _, err := Check(Options{Config: path}); err != nil {
		t.Fatalf("check: %v", err)
	}
	runDaemon(t, Options{Config: path, StateDir: t.TempDir(), Listen: "127.0.0.1:0"})
}

func clipped(err error) string {
	if err == nil {
		return "<nil>"
	}
	s := err.Error()
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
