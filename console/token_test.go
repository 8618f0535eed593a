package console

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadTokenMakesOneOnce(t *testing.T) {
	dir := t.TempDir()
	tok, created, err := LoadToken(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !created || len(tok) != 32 || strings.Trim(tok, "0123456789abcdef") != "" {
		t.Fatalf("token %q created %v, want 32 hex digits made now", tok, created)
	}
	info, err := os.Stat(filepath.Join(dir, TokenFile))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", info.Mode().Perm())
	}
	again, created, err := LoadToken(dir)
	if err != nil || created || again != tok {
		t.Errorf("second load: %q created %v err %v, want the same token, not made again", again, created, err)
	}
	other, _, err := LoadToken(t.TempDir())
	if err != nil || other == tok {
		t.Errorf("another directory's token %q (err %v): want a different token", other, err)
	}
}

func TestLoadToken(t *testing.T) {
	tests := []struct {
		name    string
		content string
		mode    os.FileMode
		want    string // token, or the error's words
		wantErr bool
	}{
		{"operator's own token", "my-arbiter-token-2026\n", 0o600, "my-arbiter-token-2026", false},
		{"too wide permissions narrowed", "0123456789abcdef0123\n", 0o644, "0123456789abcdef0123", false},
		{"too short", "short\n", 0o600, "too short", true},
		{"empty", "", 0o600, "too short", true},
		{"space inside", "0123456789 abcdef0123\n", 0o600, "not printable", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, TokenFile)
			if err := os.WriteFile(path, []byte(tt.content), tt.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, tt.mode)
			tok, created, err := LoadToken(dir)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
					t.Fatalf("err %v, want one naming %s and saying %q", err, path, tt.want)
				}
				return
			}
			if err != nil || tok != tt.want || created {
				t.Fatalf("got %q created %v err %v, want %q", tok, created, err, tt.want)
			}
			info, _ := os.Stat(path)
			if info.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600", info.Mode().Perm())
			}
		})
	}
}

func TestLoadTokenUnwritableDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	tok, created, err := LoadToken(dir)
	if err == nil || !strings.Contains(err.Error(), "arbiter token") || !strings.Contains(err.Error(), dir) {
		t.Errorf("err %v, want an arbiter token error naming %s", err, dir)
	}
	// The token made holds for this run: the daemon runs on with it (a
	// first start on a full disk) and saves it later.
	var notSaved *TokenNotSavedError
	if !errors.As(err, &notSaved) || checkToken(tok) != nil || !created {
		t.Fatalf("err %v (%T), token %q, created %v: want a token and a *TokenNotSavedError", err, err, tok, created)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := SaveToken(dir, tok); err != nil {
		t.Fatal(err)
	}
	again, created, err := LoadToken(dir)
	if err != nil || again != tok || created {
		t.Errorf("after SaveToken: %q, created %v, %v; want %q kept", again, created, err, tok)
	}
}

func TestListenAddressInUse(t *testing.T) {
	ln, err := Listen("127.0.0.1:0", ListenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, err = Listen(addr, ListenOptions{})
	if err == nil || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "already in use") || !strings.Contains(err.Error(), "--listen") {
		t.Errorf("err %v, want one naming %s, in use, and --listen", err, addr)
	}
	if _, err := Listen("8080", ListenOptions{}); err == nil || !strings.Contains(err.Error(), "want HOST:PORT") {
		t.Errorf("err %v, want HOST:PORT", err)
	}
}

func TestURL(t *testing.T) {
	tests := []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "http://127.0.0.1:8080/"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 80}, "http://127.0.0.1:80/"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://127.0.0.1:8080/"},
		{&net.TCPAddr{IP: net.ParseIP("::1"), Port: 8080}, "http://[::1]:8080/"},
	}
	for _, tt := range tests {
		if got := URL(tt.addr); got != tt.want {
			t.Errorf("URL(%v) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}
