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
// wider permissions is narrowed to 0600.
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
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", false, fmt.Errorf("console: arbiter token: %w", err)
	}
	if _, err := f.WriteString(token + "\n"); err != nil {
		f.Close()
		os.Remove(path)
		return "", false, fmt.Errorf("console: arbiter token %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return "", false, fmt.Errorf("console: arbiter token %s: %w", path, err)
	}
	return token, true, nil
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
