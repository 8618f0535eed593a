package mosquittotest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// CA is a certificate authority made for one test: it signs the broker's
// certificate and the clients'.
type CA struct {
	Dir  string // where its files are written
	Name string
	File string // the CA certificate (PEM)
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

// NewCA makes a CA named name and writes its certificate as DIR/NAME-ca.pem.
func NewCA(dir, name string) (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("mosquittotest: CA key: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: name + " test CA", Organization: []string{"boardd tests"}},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("mosquittotest: CA certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("mosquittotest: CA certificate: %w", err)
	}
	ca := &CA{Dir: dir, Name: name, File: filepath.Join(dir, name+"-ca.pem"), cert: cert, key: key}
	if err := writePEM(ca.File, "CERTIFICATE", der, 0o644); err != nil {
		return nil, err
	}
	return ca, nil
}

// Pair is a certificate and its key, as files.
type Pair struct {
	CertFile, KeyFile string
}

// Server issues the broker's certificate for 127.0.0.1 and localhost.
func (ca *CA) Server(name string) (Pair, error) {
	return ca.issue(name, x509.ExtKeyUsageServerAuth, []string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback})
}

// Client issues a client certificate whose common name is cn (the user
// name a broker with use_identity_as_username sees).
func (ca *CA) Client(cn string) (Pair, error) {
	return ca.issue(cn, x509.ExtKeyUsageClientAuth, nil, nil)
}

func (ca *CA) issue(cn string, usage x509.ExtKeyUsage, dns []string, ips []net.IP) (Pair, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Pair{}, fmt.Errorf("mosquittotest: key for %s: %w", cn, err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: cn, Organization: []string{"boardd tests"}},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     dns,
		IPAddresses:  ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return Pair{}, fmt.Errorf("mosquittotest: certificate for %s: %w", cn, err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return Pair{}, fmt.Errorf("mosquittotest: key for %s: %w", cn, err)
	}
	p := Pair{CertFile: filepath.Join(ca.Dir, ca.Name+"-"+cn+"-cert.pem"), KeyFile: filepath.Join(ca.Dir, ca.Name+"-"+cn+"-key.pem")}
	if err := writePEM(p.CertFile, "CERTIFICATE", der, 0o644); err != nil {
		return Pair{}, err
	}
	if err := writePEM(p.KeyFile, "PRIVATE KEY", kder, 0o600); err != nil {
		return Pair{}, err
	}
	return p, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n.Add(n, big.NewInt(1))
}

func writePEM(path, typ string, der []byte, mode os.FileMode) error {
	data := pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
	if err := os.WriteFile(path, data, mode); err != nil {
		return fmt.Errorf("mosquittotest: %w", err)
	}
	return nil
}
