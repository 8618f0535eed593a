package lichess

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile is the name of the file holding the personal API token, in
// $CREDENTIALS_DIRECTORY (systemd's LoadCredential=) or the state directory.
const TokenFile = "lichess-token"

// TokenPage is where a lichess user creates a personal API token.
const TokenPage = "https://lichess.org/account/oauth/token"

// maxTokenLength bounds what ReadToken accepts. Lichess says tokens may grow
// without notice and clients should take at least 512 characters.
const maxTokenLength = 4096

// Token is a lichess personal API token. It formats, logs and marshals as
// "[redacted]", so a token printed by mistake shows nothing; Reveal is for the
// Authorization header alone.
type Token struct{ secret string }

// NewToken wraps a token's text, checking its form (lichess tokens match
// [A-Za-z0-9_]+).
func NewToken(text string) (Token, error) {
	if err := checkToken(text); err != nil {
		return Token{}, fmt.Errorf("lichess: %w", err)
	}
	return Token{secret: text}, nil
}

// checkToken says what is wrong with a token's text, without showing it.
func checkToken(text string) error {
	if text == "" {
		return errors.New("the token is empty")
	}
	if len(text) > maxTokenLength {
		return fmt.Errorf("the token is %d characters long: at most %d expected", len(text), maxTokenLength)
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return fmt.Errorf("the token has a character other than letters, digits and _ at position %d: a lichess token is one word", i+1)
		}
	}
	return nil
}

// Reveal returns the token's text, for the Authorization header.
func (t Token) Reveal() string { return t.secret }

// IsZero reports whether the token is empty.
func (t Token) IsZero() bool { return t.secret == "" }

// String returns "[redacted]".
func (t Token) String() string { return "[redacted]" }

// GoString returns "lichess.Token([redacted])".
func (t Token) GoString() string { return "lichess.Token([redacted])" }

// Format writes "[redacted]" whatever the verb.
func (t Token) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte("[redacted]")) }

// LogValue is "[redacted]".
func (t Token) LogValue() slog.Value { return slog.StringValue("[redacted]") }

// MarshalText returns "[redacted]": a token is never written out.
func (t Token) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// ReadToken reads the token from credentialsDir/lichess-token (systemd's
// $CREDENTIALS_DIRECTORY; skipped when "") or else stateDir/lichess-token. It
// returns the token and the file it came from. The file must hold the token
// on one line; a file in the state directory must be readable by its owner
// alone (mode 0600 or 0400), as the token plays moves in the account's name.
// Every error names the file and what to do.
func ReadToken(credentialsDir, stateDir string) (Token, string, error) {
	var tried []string
	for _, dir := range []string{credentialsDir, stateDir} {
		if dir == "" {
			continue
		}
		path := filepath.Join(dir, TokenFile)
		info, err := os.Stat(path)
		if errors.Is(err, fs.ErrNotExist) {
			tried = append(tried, path)
			continue
		}
		if err != nil {
			return Token{}, path, fmt.Errorf("lichess: token file %s: %w", path, unwrapPath(err))
		}
		if !info.Mode().IsRegular() {
			return Token{}, path, fmt.Errorf("lichess: token file %s is not a regular file", path)
		}
		// A token must be readable by boardd alone, wherever it is:
		// systemd makes its credentials 0400, so a wider file in
		// $CREDENTIALS_DIRECTORY was put there some other way.
		if info.Mode().Perm()&0o077 != 0 {
			return Token{}, path, fmt.Errorf("lichess: token file %s has mode %04o: others may read it; make it readable by boardd alone (chmod 600 %s)", path, info.Mode().Perm(), path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return Token{}, path, fmt.Errorf("lichess: token file %s: %w", path, unwrapPath(err))
		}
		text := strings.TrimRight(string(data), " \t\r\n")
		text = strings.TrimLeft(text, " \t")
		if strings.ContainsAny(text, "\r\n") {
			return Token{}, path, fmt.Errorf("lichess: token file %s: want the token alone on one line", path)
		}
		if err := checkToken(text); err != nil {
			return Token{}, path, fmt.Errorf("lichess: token file %s: %w", path, err)
		}
		return Token{secret: text}, path, nil
	}
	if len(tried) == 0 {
		return Token{}, "", fmt.Errorf("lichess: no token: no credentials or state directory to look in for %s", TokenFile)
	}
	return Token{}, "", fmt.Errorf("lichess: no token: %s does not exist; create a personal token with the board:play scope at %s and write it there (readable by boardd alone)", strings.Join(tried, " nor "), TokenPage)
}

// unwrapPath drops the *fs.PathError's path, which the caller names itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
