// Package actionsig is how a board knows that an arbiter action came from
// the club hall: the hall signs every action with its own Ed25519 key, kept
// on the hall's machine only, and each board checks the signature with the
// hall's public key. A board holds nothing that can sign, so one board's SD
// card cannot forge an action for another board, or for itself; and the
// hall's arbiter token (what its page asks for) never leaves the hall.
//
// The signature covers the board the action is for, the action's id, and
// the action (its kind, option and value): an action cannot be turned to
// another board, or into another action.
package actionsig

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/hall/wire"
)

// Files of the hall's key pair.
const (
	// KeyFile is the hall's private key (PKCS #8, PEM), in the hall's
	// state directory, readable by the hall only. It never leaves the
	// hall's machine.
	KeyFile = "hall-signing-key.pem"
	// VerifyKeyFile is the hall's public key (PKIX, PEM). The hall writes
	// it beside its private key; each board finds a copy in its
	// credential directories ($CREDENTIALS_DIRECTORY, its state directory).
	VerifyKeyFile = "hall-verify-key.pem"
)

// Signer signs the hall's actions, numbering them.
type Signer struct {
	key ed25519.PrivateKey
	now func() time.Time

	mu      sync.Mutex
	last    uint64 // the last action number given
	seqPath string // where the last number is kept ("": nowhere)
}

// NewSigner returns a signer with key.
func NewSigner(key ed25519.PrivateKey) *Signer { return &Signer{key: key, now: time.Now} }

// Generate returns a signer with a new key from crypto/rand.
func Generate() (*Signer, error) {
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("actionsig: %w", err)
	}
	return NewSigner(key), nil
}

// Public returns the key that verifies the signer's signatures.
func (s *Signer) Public() ed25519.PublicKey { return s.key.Public().(ed25519.PublicKey) }

// Verifier returns the verifier of the signer's signatures.
func (s *Signer) Verifier() *Verifier { return &Verifier{pub: s.Public()} }

// Sign sets a's Board to board and its Seq to the signer's next action
// number, and signs the action for it. The numbers grow across the hall's
// restarts: each is the wall clock in microseconds, or one more than the
// last when that is further on (a clock set back), and a signer made by
// LoadOrCreate keeps the last in SeqFile. The error is keeping it: the
// action is signed all the same (the clock still numbers the next).
func (s *Signer) Sign(a *wire.Action, board string) error {
	s.mu.Lock()
	seq := max(s.last+1, uint64(max(s.now().UnixMicro(), 0)))
	s.last = seq
	path := s.seqPath
	var err error
	if path != "" {
		err = writeSeq(path, seq)
	}
	s.mu.Unlock()
	a.Board, a.Seq = board, seq
	a.Sig = ed25519.Sign(s.key, signed(a))
	return err
}

// SeqFile, beside the hall's key, holds the last action number it signed.
const SeqFile = "hall-action-seq"

// writeSeq keeps seq in path (written whole, then renamed into place).
func writeSeq(path string, seq uint64) error {
	if err := os.WriteFile(path+".tmp", []byte(strconv.FormatUint(seq, 10)+"\n"), 0o600); err != nil {
		return fmt.Errorf("actionsig: keeping the action number: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return fmt.Errorf("actionsig: keeping the action number: %w", err)
	}
	return nil
}

// ReadSeq reads an action number kept in path: 0 when there is no file.
func ReadSeq(path string) (uint64, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("actionsig: %w", err)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("actionsig: %s: want an action number: %w", path, err)
	}
	return n, nil
}

// Verifier checks the hall's signatures.
type Verifier struct {
	pub ed25519.PublicKey
}

// NewVerifier returns a verifier of signatures by pub's private key.
func NewVerifier(pub ed25519.PublicKey) (*Verifier, error) {
	if len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("actionsig: a public key of %d bytes: want %d (Ed25519)", len(pub), ed25519.PublicKeySize)
	}
	return &Verifier{pub: pub}, nil
}

// Fingerprint names the key for people comparing two copies of it: the
// first 16 hex digits of its SHA-256.
func (v *Verifier) Fingerprint() string { return Fingerprint(v.pub) }

// Fingerprint names a public key: the first 16 hex digits of its SHA-256.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return hex.EncodeToString(sum[:8])
}

// ErrUnsigned is an action without a signature: a hall that signs no
// actions (an older boardd), or a forgery.
var ErrUnsigned = errors.New("the action is not signed: it did not come from this board's hall (is the hall's boardd older than the board's?)")

// ErrBadSignature is an action whose signature is not the hall's for this
// board: a forgery, an action for another board, or a hall whose key is
// not the one the board holds.
var ErrBadSignature = errors.New("the action's signature is not the hall's for this board (another hall's key, or a forgery)")

// Verify checks that a was signed by the hall for board.
func (v *Verifier) Verify(a *wire.Action, board string) error {
	switch {
	case len(a.Sig) == 0:
		return ErrUnsigned
	case a.Board != board:
		return fmt.Errorf("the action is for board %q, not %q", a.Board, board)
	case !ed25519.Verify(v.pub, signed(a), a.Sig):
		return ErrBadSignature
	}
	return nil
}

// domain keeps a signature on an action from meaning anything else. v2
// signs the action number too.
const domain = "boardd hall action v2\x00"

// signed returns the bytes signed for a: the domain, then each signed field
// with its length before it.
func signed(a *wire.Action) []byte {
	fields := []string{a.Board, a.ID, a.Action, a.Option, a.Value, strconv.FormatUint(a.Seq, 10)}
	n := len(domain)
	for _, f := range fields {
		n += binary.MaxVarintLen64 + len(f)
	}
	out := make([]byte, 0, n)
	out = append(out, domain...)
	for _, f := range fields {
		out = binary.AppendUvarint(out, uint64(len(f)))
		out = append(out, f...)
	}
	return out
}

// LoadOrCreate returns the hall's signer kept in dir as KeyFile, making a
// key on first use (created is then true). It (re)writes VerifyKeyFile
// beside it, for the boards. The private key's file is readable and
// writable by its owner only; one found with wider permissions is narrowed.
func LoadOrCreate(dir string) (s *Signer, created bool, err error) {
	path := filepath.Join(dir, KeyFile)
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		key, err := decodePrivate(data)
		if err != nil {
			return nil, false, fmt.Errorf("actionsig: %s: %w (delete it to make a new key, and copy the new %s to every board)", path, err, VerifyKeyFile)
		}
		if info, err := os.Stat(path); err == nil && info.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(path, 0o600); err != nil {
				return nil, false, fmt.Errorf("actionsig: %s is readable by others and cannot be narrowed: %w", path, err)
			}
		}
		s = NewSigner(key)
	case errors.Is(err, fs.ErrNotExist):
		if s, err = Generate(); err != nil {
			return nil, false, err
		}
		der, err := x509.MarshalPKCS8PrivateKey(s.key)
		if err != nil {
			return nil, false, fmt.Errorf("actionsig: %w", err)
		}
		if err := writeNew(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
			return nil, false, err
		}
		created = true
	default:
		return nil, false, fmt.Errorf("actionsig: %w", err)
	}
	if err := WriteVerifyKey(filepath.Join(dir, VerifyKeyFile), s.Public()); err != nil {
		return nil, false, err
	}
	s.seqPath = filepath.Join(dir, SeqFile)
	if s.last, err = ReadSeq(s.seqPath); err != nil {
		return nil, false, err
	}
	return s, created, nil
}

// writeNew writes a file that must not exist yet.
func writeNew(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("actionsig: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("actionsig: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("actionsig: %s: %w", path, err)
	}
	return nil
}

func decodePrivate(data []byte) (ed25519.PrivateKey, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, errors.New(`want a PEM "PRIVATE KEY" (an Ed25519 key in PKCS #8)`)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	key, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("a %T key: want Ed25519", k)
	}
	return key, nil
}

// WriteVerifyKey writes pub as a PEM public key (PKIX), readable by all: it
// is no secret.
func WriteVerifyKey(path string, pub ed25519.PublicKey) error {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return fmt.Errorf("actionsig: %w", err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	if old, err := os.ReadFile(path); err == nil && string(old) == string(data) {
		return nil
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("actionsig: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("actionsig: %w", err)
	}
	return nil
}

// LoadVerifier reads the hall's public key from the PEM file at path.
func LoadVerifier(path string) (*Verifier, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("hall verify key: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PUBLIC KEY" {
		if block != nil && block.Type == "PRIVATE KEY" {
			return nil, fmt.Errorf("hall verify key %s: this is a private key: a board needs only the hall's %s, never its %s", path, VerifyKeyFile, KeyFile)
		}
		return nil, fmt.Errorf(`hall verify key %s: want a PEM "PUBLIC KEY" (the hall's %s)`, path, VerifyKeyFile)
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("hall verify key %s: %w", path, err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("hall verify key %s: a %T key: want Ed25519 (the hall's %s)", path, k, VerifyKeyFile)
	}
	return &Verifier{pub: pub}, nil
}

// FindVerifier reads VerifyKeyFile from the first of dirs that has it
// (nil, "" and no error when none has).
func FindVerifier(dirs ...string) (v *Verifier, path string, err error) {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, VerifyKeyFile)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		v, err := LoadVerifier(p)
		return v, p, err
	}
	return nil, "", nil
}
