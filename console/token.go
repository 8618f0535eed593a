package console

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile is the name of the arbiter token's file in the state directory.
const TokenFile = "arbiter-token"

// tokenBytes is the token's strength: 128 random bits, 32 hex digits.
const tokenBytes = 16

// LoadToken returns the arbiter token kept in directory dir, making one from
// crypto/rand on first use (created is then true: the caller shows it once).
// The file is readable and writable by its owner only; a file found with
// wider permissions is narrowed to 0600. A token made whose file cannot be
// written is returned with created true and a *TokenNotSavedError: it
// holds for this run, and SaveToken may save it later.
func LoadToken(dir string) (token string, created bool, err error) {
	path := filepath.Join(dir, TokenFile)
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		token = strings.TrimSpace(string(data))
		if err := checkToken(token); err != nil {
			return "", false, fmt.Errorf("console: arbiter token %s: %w (delete the file to make a new token)", path, err)
		}
		info, err := os.Stat(path)
		if err != nil {
			return "", false, fmt.Errorf("console: arbiter token: %w", err)
		}
		if info.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(path, 0o600); err != nil {
				return "", false, fmt.Errorf("console: arbiter token %s is readable by others and cannot be narrowed: %w", path, err)
			}
		}
		return token, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", false, fmt.Errorf("console: arbiter token: %w", err)
	}
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", false, fmt.Errorf("console: arbiter token: %w", err)
	}
	token = hex.EncodeToString(raw)
	if err := SaveToken(dir, token); err != nil {
		// The token is good for this run: the caller decides whether a
		// token kept in memory only will do (a full disk at first start).
		return token, true, err
	}
	return token, true, nil
}

// TokenNotSavedError is LoadToken's and SaveToken's error when a token was
// made but its file could not be written (a full disk, a read-only state
// directory): the token holds for this run only, until SaveToken succeeds.
type TokenNotSavedError struct {
	Path string
	Err  error
}

// Error names the token's file and why it was not written.
func (e *TokenNotSavedError) Error() string {
	return fmt.Sprintf("console: arbiter token %s not saved: %v", e.Path, e.Err)
}

// Unwrap returns the write's error (a full disk: syscall.ENOSPC).
func (e *TokenNotSavedError) Unwrap() error { return e.Err }

// SaveToken writes token to its file in directory dir, readable and
// writable by its owner only, whole or not at all: a write that fails
// removes what it wrote. The error is a *TokenNotSavedError.
func SaveToken(dir, token string) error {
	path := filepath.Join(dir, TokenFile)
	fail := func(err error) error { return &TokenNotSavedError{Path: path, Err: err} }
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fail(err)
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		f.Close()
		os.Remove(path)
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fail(err)
	}
	return nil
}

// checkToken accepts tokens of at least 16 printable ASCII characters with
// no spaces (an operator may write their own into the file).
func checkToken(token string) error {
	if len(token) < 16 {
		return fmt.Errorf("token too short: want at least 16 characters")
	}
	for _, c := range token {
		if c <= ' ' || c > '~' {
			return fmt.Errorf("token has a character that is not printable ASCII")
		}
	}
	return nil
}
