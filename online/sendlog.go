package online

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/boardd/boardd/lichess"
)

// SendLogPath is where the send log of lichess game id is kept in the
// state directory dir.
func SendLogPath(dir, id string) string {
	return filepath.Join(dir, "lichess-"+id+".sent.json")
}

// LoadSendLog reads a send log written by SaveSendLog; a missing file is an
// empty log.
func LoadSendLog(path string) ([]lichess.Sent, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("online: send log: %w", err)
	}
	var log []lichess.Sent
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, fmt.Errorf("online: send log %s: %w", path, err)
	}
	return log, nil
}

// SaveSendLog writes the send log durably: to a temporary file, synced,
// renamed over the old one, the directory synced, so that a crash leaves
// the old log or the new one, never a torn one. A move is POSTed only
// after the log listing it is saved.
func SaveSendLog(path string, log []lichess.Sent) error {
	data, err := json.Marshal(log)
	if err != nil {
		return fmt.Errorf("online: send log: %w", err)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".sendlog-*")
	if err != nil {
		return fmt.Errorf("online: send log: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("online: send log %s: %w", path, werr)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
