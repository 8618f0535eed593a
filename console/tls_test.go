package console

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/boardd/boardd/browsertest"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/hall/mosquittotest"
	"github.com/boardd/boardd/timing"
)

// tlsRig is the console over a real game, served over HTTPS on a listener
// of its own with a certificate from a test CA.
type tlsRig struct {
	url   string
	ca    *mosquittotest.CA
	pair  mosquittotest.Pair
	pool  *x509.CertPool
	creds *TLS
}

func newTLSRig(t *testing.T) *tlsRig {
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
	creds, err := LoadTLS(pair.CertFile, pair.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	pem, err := os.ReadFile(ca.File)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)

	p, err := game.New(game.Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runner := game.NewRunner(p, timing.NewReal())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); runner.Run(ctx) }()
	local, err := NewLocal(runner, LocalOptions{ID: "test", Simulated: true, Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Boards: []Board{local}, Token: testToken, Ping: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen("127.0.0.1:0", ListenOptions{TLS: creds})
	if err != nil {
		t.Fatal(err)
	}
	hs := HTTPServer(srv)
	go ln.Serve(hs)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		local.Close()
		cancel()
		<-done
	})
	if !ln.TLS() || !strings.HasPrefix(ln.URL(), "https://127.0.0.1:") {
		t.Fatalf("listener TLS %v, URL %s", ln.TLS(), ln.URL())
	}
	return &tlsRig{url: strings.TrimSuffix(ln.URL(), "/"), ca: ca, pair: pair, pool: pool, creds: creds}
}

func (r *tlsRig) client() *http.Client {
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: r.pool}, ForceAttemptHTTP2: true}, Timeout: 10 * time.Second}
}

// The console over HTTPS: a client that trusts the club's CA gets the API
// over HTTP/2 and acts as the arbiter; one that does not refuses the
// server; plain HTTP on the port gets nothing; a renewed certificate is
// served without a restart.
func TestHTTPS(t *testing.T) {
	r := newTLSRig(t)
	req, _ := http.NewRequest(http.MethodGet, r.url+"/api/auth", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	res, err := r.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.ProtoMajor != 2 {
		t.Errorf("HTTPS: %d over %s, want 200 over HTTP/2", res.StatusCode, res.Proto)
	}
	if _, err := http.Get(r.url + "/api/laws"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("a client without the club's CA: %v, want a certificate error", err)
	}
	if res, err := http.Get("http://" + strings.TrimPrefix(r.url, "https://") + "/api/laws"); err == nil {
		res.Body.Close()
		if res.StatusCode == http.StatusOK {
			t.Errorf("plain HTTP to the HTTPS port: %d", res.StatusCode)
		}
	}

	// A renewed certificate (another one for the same names) is served at
	// the next handshake.
	before := r.creds.Leaf().SerialNumber
	renewed, err := r.ca.Server("board-01")
	if err != nil {
		t.Fatal(err)
	}
	if renewed.CertFile != r.pair.CertFile {
		t.Fatalf("the CA wrote the renewal to %s, not over %s", renewed.CertFile, r.pair.CertFile)
	}
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(r.pair.CertFile, later, later)
	conn, err := tls.Dial("tcp", strings.TrimPrefix(r.url, "https://"), &tls.Config{RootCAs: r.pool, ServerName: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	served := conn.ConnectionState().PeerCertificates[0].SerialNumber
	conn.Close()
	if served.Cmp(before) == 0 {
		t.Errorf("the old certificate is still served after renewal")
	}
}

func TestLoadTLSFaults(t *testing.T) {
	dir := t.TempDir()
	ca, err := mosquittotest.NewCA(dir, "club")
	if err != nil {
		t.Fatal(err)
	}
	a, err := ca.Server("a")
	if err != nil {
		t.Fatal(err)
	}
	other, err := mosquittotest.NewCA(filepath.Join(dir), "other")
	if err != nil {
		t.Fatal(err)
	}
	b, err := other.Server("b")
	if err != nil {
		t.Fatal(err)
	}
	notPEM := filepath.Join(dir, "not.pem")
	os.WriteFile(notPEM, []byte("hello\n"), 0o600)
	for _, c := range []struct {
		name, cert, key, want string
	}{
		{"no key", a.CertFile, "", "without its key (--tls-key)"},
		{"no certificate", "", a.KeyFile, "without its certificate (--tls-cert)"},
		{"missing certificate", filepath.Join(dir, "missing.pem"), a.KeyFile, "missing.pem: no such file"},
		{"missing key", a.CertFile, filepath.Join(dir, "missing-key.pem"), "missing-key.pem: no such file"},
		{"a key that is not the certificate's", a.CertFile, b.KeyFile, "private key does not match public key"},
		{"not PEM", notPEM, a.KeyFile, "want PEM files"},
	} {
		_, err := LoadTLS(c.cert, c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	// A broken renewal leaves the last good certificate served.
	creds, err := LoadTLS(a.CertFile, a.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(a.CertFile, []byte("half a certificate"), 0o644)
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(a.CertFile, later, later)
	cert, _ := creds.current()
	if cert == nil || cert.Leaf.Subject.CommonName != "a" || creds.ReloadError() == nil {
		t.Errorf("after a broken renewal: %v, reload error %v; want the old certificate and the error", cert, creds.ReloadError())
	}
}

// spki returns the base64 SHA-256 of a PEM certificate's public key: what
// Chromium's --ignore-certificate-errors-spki-list pins.
func spki(t *testing.T, certFile string) string {
	t.Helper()
	data, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:])
}

// Headless Chromium loads the console over HTTPS with the board's
// certificate pinned, follows its event stream and plays a move on the
// simulated board; the arbiter's link works the same.
func TestBrowserHTTPS(t *testing.T) {
	r := newTLSRig(t)
	b := &browsertest.Browser{Flags: map[string]any{"ignore-certificate-errors-spki-list": spki(t, r.pair.CertFile)}}
	t.Cleanup(b.Close)
	ctx := b.Context(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(r.url+"/#token="+testToken)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the event stream over HTTPS", `document.getElementById('conn').className === 'up' && document.getElementById('laws').textContent !== ''`)
	if proto := jsString(t, ctx, `location.protocol`); proto != "https:" {
		t.Errorf("page protocol %q", proto)
	}
	squares(t, ctx, "e2", "e4")
	waitJS(t, ctx, "1. e4 over the stream", movesAre("e4"))
	// A page whose certificate is not pinned is refused.
	plain := chrome.Context(t)
	err := chromedp.Do(plain, chromedp.Navigate(r.url+"/"))
	if err == nil || !strings.Contains(err.Error(), "ERR_CERT") {
		t.Errorf("Chromium without the pin: %v, want a certificate error", err)
	}
}
