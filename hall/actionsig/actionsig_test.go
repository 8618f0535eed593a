package actionsig

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/wire"
)

func testSigner(t testing.TB, seed byte) *Signer {
	t.Helper()
	s := make([]byte, ed25519.SeedSize)
	s[0] = seed
	return NewSigner(ed25519.NewKeyFromSeed(s))
}

// A board carries out only what the hall signed for it, as signed.
func TestVerify(t *testing.T) {
	hall, other := testSigner(t, 1), testSigner(t, 2)
	v := hall.Verifier()
	signed := func(s *Signer, board string, a wire.Action) wire.Action {
		s.Sign(&a, board)
		return a
	}
	result := wire.Action{ID: "a1", Action: wire.ActionResult, Value: "1-0"}
	for _, c := range []struct {
		name  string
		a     wire.Action
		board string
		want  error  // nil, or the error
		says  string // or what the error says
	}{
		{"the hall's, for this board", signed(hall, "b1", result), "b1", nil, ""},
		{"unsigned", result, "b1", ErrUnsigned, ""},
		{"the hall's for another board", signed(hall, "b2", result), "b1", nil, `for board "b2", not "b1"`},
		{"another board's, renamed", func() wire.Action { a := signed(hall, "b2", result); a.Board = "b1"; return a }(), "b1", ErrBadSignature, ""},
		{"signed by another key", signed(other, "b1", result), "b1", ErrBadSignature, ""},
		{"the value changed", func() wire.Action { a := signed(hall, "b1", result); a.Value = "0-1"; return a }(), "b1", ErrBadSignature, ""},
		{"the action changed", func() wire.Action {
			a := signed(hall, "b1", result)
			a.Action = wire.ActionAnnul
			a.Value = ""
			return a
		}(), "b1", ErrBadSignature, ""},
		{"the id changed", func() wire.Action { a := signed(hall, "b1", result); a.ID = "a2"; return a }(), "b1", ErrBadSignature, ""},
		{"the number raised (a replay passed off as new)", func() wire.Action { a := signed(hall, "b1", result); a.Seq += 1e9; return a }(), "b1", ErrBadSignature, ""},
		// Fields run together differently sign differently.
		{"a field's end moved", func() wire.Action {
			a := signed(hall, "b1", wire.Action{ID: "a1", Action: wire.ActionChoose, Option: "stand"})
			a.ID, a.Action = "a1c", "hoose"
			return a
		}(), "b1", ErrBadSignature, ""},
	} {
		err := v.Verify(&c.a, c.board)
		switch {
		case c.want == nil && c.says == "" && err != nil:
			t.Errorf("%s: %v, want it carried out", c.name, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		case c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)):
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.says)
		}
	}
}

// The hall's key is made once, kept private, and its public half written
// for the boards; a board reads the public half and refuses the private.
func TestLoadOrCreate(t *testing.T) {
	dir := t.TempDir()
	s, created, err := LoadOrCreate(dir)
	if err != nil || !created {
		t.Fatalf("first start: created %v, %v", created, err)
	}
	info, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("private key file: %v %v, want mode 0600", info, err)
	}
	again, created, err := LoadOrCreate(dir)
	if err != nil || created || !again.Public().Equal(s.Public()) {
		t.Fatalf("second start: created %v, same key %v, %v", created, again.Public().Equal(s.Public()), err)
	}
	// A board holds the public key only.
	board := t.TempDir()
	data, err := os.ReadFile(filepath.Join(dir, VerifyKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "PRIVATE") {
		t.Fatal("the verify key file holds a private key")
	}
	os.WriteFile(filepath.Join(board, VerifyKeyFile), data, 0o644)
	v, path, err := FindVerifier("", filepath.Join(t.TempDir(), "none"), board)
	if err != nil || path != filepath.Join(board, VerifyKeyFile) {
		t.Fatalf("FindVerifier: %q, %v", path, err)
	}
	if v.Fingerprint() != Fingerprint(s.Public()) {
		t.Errorf("fingerprints differ: %s, %s", v.Fingerprint(), Fingerprint(s.Public()))
	}
	a := wire.Action{ID: "x", Action: wire.ActionAnnul}
	s.Sign(&a, "b1")
	if err := v.Verify(&a, "b1"); err != nil {
		t.Errorf("the board refuses the hall's action: %v", err)
	}
	// The private key given to a board by mistake is refused, saying why.
	os.WriteFile(filepath.Join(board, VerifyKeyFile), mustRead(t, filepath.Join(dir, KeyFile)), 0o600)
	if _, _, err := FindVerifier(board); err == nil || !strings.Contains(err.Error(), "never its "+KeyFile) {
		t.Errorf("a private key as the verify key: %v", err)
	}
	os.WriteFile(filepath.Join(board, VerifyKeyFile), []byte("0123456789abcdef0123456789abcdef\n"), 0o600)
	if _, _, err := FindVerifier(board); err == nil || !strings.Contains(err.Error(), `want a PEM "PUBLIC KEY"`) {
		t.Errorf("a hall token as the verify key: %v", err)
	}
	if v, p, err := FindVerifier(t.TempDir()); v != nil || p != "" || err != nil {
		t.Errorf("no key: %v %q %v", v, p, err)
	}
	// A private key file opened up is narrowed again.
	os.Chmod(filepath.Join(dir, KeyFile), 0o644)
	if _, _, err := LoadOrCreate(dir); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(filepath.Join(dir, KeyFile)); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after narrowing", info.Mode().Perm())
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func BenchmarkVerify(b *testing.B) {
	s := testSigner(b, 1)
	v := s.Verifier()
	a := wire.Action{ID: "4f2a90c1d3e5b7a8c9", Action: wire.ActionChoose, Option: "move-touched"}
	s.Sign(&a, "board-01")
	b.ReportAllocs()
	for b.Loop() {
		if err := v.Verify(&a, "board-01"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSign(b *testing.B) {
	s := testSigner(b, 1)
	a := wire.Action{ID: "4f2a90c1d3e5b7a8c9", Action: wire.ActionChoose, Option: "move-touched"}
	b.ReportAllocs()
	for b.Loop() {
		s.Sign(&a, "board-01")
	}
}

// Action numbers grow with every action signed, across the hall's restarts
// (the last kept beside its key) and whatever its clock does.
func TestActionNumbersGrow(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 27, 20, 0, 0, 0, time.UTC)
	clock := func() time.Time { return at }
	s, _, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.now = clock
	var last uint64
	steps := []struct {
		name    string
		move    time.Duration // the clock moved before signing
		restart bool          // the hall restarted before signing
	}{
		{"the first", 0, false},
		{"the same microsecond", 0, false},
		{"a second later", time.Second, false},
		{"after a restart", 0, true},
		{"the clock set back an hour", -time.Hour, false},
		{"after a restart with the clock set back a day", -24 * time.Hour, true},
		{"the clock on again", 48 * time.Hour, false},
	}
	for _, st := range steps {
		at = at.Add(st.move)
		if st.restart {
			if s, _, err = LoadOrCreate(dir); err != nil {
				t.Fatal(err)
			}
			s.now = clock
		}
		a := wire.Action{ID: "x", Action: wire.ActionAnnul}
		if err := s.Sign(&a, "b1"); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if a.Seq <= last {
			t.Errorf("%s: action number %d, not past %d", st.name, a.Seq, last)
		}
		if err := s.Verifier().Verify(&a, "b1"); err != nil {
			t.Errorf("%s: %v", st.name, err)
		}
		last = a.Seq
	}
	if kept, err := ReadSeq(filepath.Join(dir, SeqFile)); err != nil || kept != last {
		t.Errorf("kept %d (%v), want %d", kept, err, last)
	}
	os.WriteFile(filepath.Join(dir, SeqFile), []byte("twelve\n"), 0o600)
	if _, _, err := LoadOrCreate(dir); err == nil || !strings.Contains(err.Error(), SeqFile) {
		t.Errorf("an unreadable number file: %v, want an error naming it", err)
	}
}
