package console

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"
)

// TLS is the console's certificate and its key, read from PEM files. The
// files are read again when either changes, so a renewed certificate is
// served without a restart (a pair that does not load is passed over and
// the last good one kept).
type TLS struct {
	certFile, keyFile string

	mu      sync.Mutex
	cert    *tls.Certificate
	leaf    *x509.Certificate
	stamp   [2]fileStamp // of the files last tried
	lastErr error        // why the files last tried did not load
}

// fileStamp tells a file changed.
type fileStamp struct {
	mod  time.Time
	size int64
}

// LoadTLS reads a certificate (PEM, the server's first, then any
// intermediate CAs) and its private key (PEM). Every fault names the file
// and what is wrong.
func LoadTLS(certFile, keyFile string) (*TLS, error) {
	switch {
	case certFile == "" && keyFile == "":
		return nil, errors.New("console: TLS: no certificate and key given")
	case certFile == "":
		return nil, fmt.Errorf("console: TLS: the key %s is given without its certificate (--tls-cert)", keyFile)
	case keyFile == "":
		return nil, fmt.Errorf("console: TLS: the certificate %s is given without its key (--tls-key)", certFile)
	}
	t := &TLS{certFile: certFile, keyFile: keyFile}
	stamp, err := t.stamps()
	if err != nil {
		return nil, err
	}
	if err := t.load(stamp); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *TLS) stamps() ([2]fileStamp, error) {
	var s [2]fileStamp
	for i, f := range []struct{ what, path string }{{"certificate", t.certFile}, {"key", t.keyFile}} {
		info, err := os.Stat(f.path)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return s, fmt.Errorf("console: TLS %s %s: %w", f.what, f.path, err)
		}
		s[i] = fileStamp{mod: info.ModTime(), size: info.Size()}
	}
	return s, nil
}

// load reads the pair; t.mu is held or t is not yet shared.
func (t *TLS) load(stamp [2]fileStamp) error {
	t.stamp = stamp
	certPEM, err := os.ReadFile(t.certFile)
	if err != nil {
		t.lastErr = fmt.Errorf("console: TLS certificate: %w", err)
		return t.lastErr
	}
	keyPEM, err := os.ReadFile(t.keyFile)
	if err != nil {
		t.lastErr = fmt.Errorf("console: TLS key: %w", err)
		return t.lastErr
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.lastErr = fmt.Errorf("console: TLS certificate %s and key %s: %w (want PEM files: the certificate, and the private key that goes with it)", t.certFile, t.keyFile, err)
		return t.lastErr
	}
	leaf, err := x509.ParseCertificate(cert.Certificate[0])
	if err != nil {
		t.lastErr = fmt.Errorf("console: TLS certificate %s: %w", t.certFile, err)
		return t.lastErr
	}
	cert.Leaf = leaf
	t.cert, t.leaf, t.lastErr = &cert, leaf, nil
	return nil
}

// current returns the certificate to serve, reading the files again when
// they changed since last tried.
func (t *TLS) current() (*tls.Certificate, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if stamp, err := t.stamps(); err == nil && stamp != t.stamp {
		_ = t.load(stamp) // on failure the last good pair stays
	}
	return t.cert, nil
}

// Config returns the server's TLS configuration: TLS 1.2 at least, the
// certificate as it stands at each handshake.
func (t *TLS) Config() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
			return t.current()
		},
	}
}

// Leaf returns the certificate served (the server's own).
func (t *TLS) Leaf() *x509.Certificate {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.leaf
}

// ReloadError returns why the files, changed since the certificate served
// was read, do not load (nil when they do, or did not change).
func (t *TLS) ReloadError() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastErr
}

// DNSName returns the certificate's first DNS name, or "".
func (t *TLS) DNSName() string {
	if l := t.Leaf(); l != nil && len(l.DNSNames) > 0 {
		return l.DNSNames[0]
	}
	return ""
}
