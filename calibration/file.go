package calibration

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardd/boardd/board"
)

// Version is the calibration file format this boardd writes and reads.
const Version = 1

// FileName is the calibration file's name in the state directory.
const FileName = "calibration.json"

// format is the file's magic word.
const format = "boardd-calibration"

// Path returns the calibration file's path in state directory dir.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// Remedy is what every refusal of a calibration file tells the user to
// do; FirstRemedy what a board never calibrated is told.
const (
	Remedy      = "run 'boardd calibrate' to recalibrate the board"
	FirstRemedy = "run 'boardd calibrate' to calibrate it"
)

// Reasons a calibration file is refused; test with errors.Is.
var (
	ErrMissing  = errors.New("no calibration")
	ErrCorrupt  = errors.New("calibration file is corrupt")
	ErrVersion  = errors.New("calibration file has another format version")
	ErrMismatch = errors.New("calibration was made on other hardware")
)

// FileError is a refused calibration file: which file, why, and what to do.
type FileError struct {
	Path   string
	Kind   error // ErrMissing, ErrCorrupt, ErrVersion or ErrMismatch
	Detail string
}

func (e *FileError) Error() string {
	remedy := Remedy
	if e.Kind == ErrMissing {
		remedy = FirstRemedy
	}
	if e.Path == "" {
		return fmt.Sprintf("%v: %s; %s", e.Kind, e.Detail, remedy)
	}
	return fmt.Sprintf("%s: %v: %s; %s", e.Path, e.Kind, e.Detail, remedy)
}

// Unwrap lets errors.Is see the kind.
func (e *FileError) Unwrap() error { return e.Kind }

// envelope is the file as stored: a header and the calibration, with a
// checksum over the calibration's compact JSON so that a file damaged
// anywhere is refused rather than half-believed.
type envelope struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Checksum string          `json:"checksum"`
	Body     json.RawMessage `json:"body"`
}

// body is the calibration as stored; Squares is a slice so that a file with
// the wrong number of squares is noticed.
type body struct {
	Calibration
	Squares []Square `json:"squares"`
}

// Encode returns the calibration file's bytes.
func Encode(c *Calibration) ([]byte, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	b := body{Calibration: *c, Squares: c.Squares[:]}
	raw, err := json.Marshal(b)
	if err != nil {
		return nil, fmt.Errorf("calibration: encode: %w", err)
	}
	env := envelope{Format: format, Version: Version, Checksum: checksum(raw), Body: raw}
	out, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("calibration: encode: %w", err)
	}
	return append(out, '\n'), nil
}

func checksum(compact []byte) string {
	sum := sha256.Sum256(compact)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Decode reads a calibration file's bytes, checking its format, version,
// checksum and contents. The error is a *FileError (without a Path).
func Decode(data []byte) (*Calibration, error) {
	corrupt := func(format string, args ...any) error {
		return &FileError{Kind: ErrCorrupt, Detail: fmt.Sprintf(format, args...)}
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, corrupt("not valid JSON (%v)", err)
	}
	if env.Format != format {
		return nil, corrupt("not a boardd calibration file (format %q)", env.Format)
	}
	if env.Version != Version {
		if env.Version > Version {
			return nil, &FileError{Kind: ErrVersion, Detail: fmt.Sprintf("written by a newer boardd (format %d; this boardd reads %d)", env.Version, Version)}
		}
		return nil, &FileError{Kind: ErrVersion, Detail: fmt.Sprintf("format %d is not supported (this boardd reads %d)", env.Version, Version)}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, env.Body); err != nil || len(env.Body) == 0 {
		return nil, corrupt("the calibration body is missing or damaged")
	}
	if checksum(compact.Bytes()) != env.Checksum {
		return nil, corrupt("checksum mismatch: the file was damaged or edited by hand")
	}
	dec := json.NewDecoder(bytes.NewReader(compact.Bytes()))
	dec.DisallowUnknownFields()
	var b body
	if err := dec.Decode(&b); err != nil {
		return nil, corrupt("calibration body: %v", err)
	}
	if len(b.Squares) != 64 {
		return nil, corrupt("%d squares, want 64", len(b.Squares))
	}
	c := b.Calibration
	copy(c.Squares[:], b.Squares)
	if err := c.validate(); err != nil {
		return nil, corrupt("%v", strings.TrimPrefix(err.Error(), "calibration: "))
	}
	return &c, nil
}

// validate checks that the calibration is internally consistent.
func (c *Calibration) validate() error {
	if c.Channels < 1 || c.Channels > 4096 {
		return fmt.Errorf("calibration: %d sensor channels, want 1 to 4096", c.Channels)
	}
	if c.Digital && c.Channels != 64 {
		return fmt.Errorf("calibration: a digital board has 64 channels, not %d", c.Channels)
	}
	if c.LEDs < 0 || c.LEDs > 64 {
		return fmt.Errorf("calibration: %d LEDs, want 0 to 64", c.LEDs)
	}
	if c.Polarity != Dual && c.Polarity != Single {
		return fmt.Errorf("calibration: polarity %q, want %q or %q", c.Polarity, Dual, Single)
	}
	if !(c.On > 0 && c.On < 1 && c.Off > 0 && c.Off < c.On) {
		return fmt.Errorf("calibration: thresholds on %v, off %v: want 0 < off < on < 1", c.On, c.Off)
	}
	channels := make(map[int]board.Square)
	leds := make(map[int]board.Square)
	for i := range c.Squares {
		sq := board.Square(i)
		s := &c.Squares[i]
		if s.Square != sq.String() {
			return fmt.Errorf("calibration: square %d is named %q, want %q", i, s.Square, sq)
		}
		if s.Channel < -1 || s.Channel >= c.Channels {
			return fmt.Errorf("calibration: %s: channel %d out of range 0-%d", sq, s.Channel, c.Channels-1)
		}
		if s.Channel >= 0 {
			if other, dup := channels[s.Channel]; dup {
				return fmt.Errorf("calibration: %s and %s both claim channel %d", other, sq, s.Channel)
			}
			channels[s.Channel] = sq
		}
		if s.LED < -1 || s.LED >= c.LEDs {
			return fmt.Errorf("calibration: %s: LED %d out of range (the chain has %d)", sq, s.LED, c.LEDs)
		}
		if s.LED >= 0 {
			if other, dup := leds[s.LED]; dup {
				return fmt.Errorf("calibration: %s and %s both claim LED %d", other, sq, s.LED)
			}
			leds[s.LED] = sq
		}
		for _, l := range []*Level{&s.Empty, s.White, s.Black} {
			if l == nil {
				continue
			}
			if !finite(l.Mean) || !finite(l.Noise) || l.Noise < 0 || l.Mean < -1e6 || l.Mean > 1e6 {
				return fmt.Errorf("calibration: %s: level %v±%v out of range", sq, l.Mean, l.Noise)
			}
		}
		for _, f := range s.Flags {
			if !knownFlag(f) {
				return fmt.Errorf("calibration: %s: unknown flag %q", sq, f)
			}
		}
	}
	return nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Check refuses a calibration made on hardware other than id.
func (c *Calibration) Check(id Identity) error {
	if c.Identity != id {
		return &FileError{Kind: ErrMismatch, Detail: fmt.Sprintf("it was made on %v, but this board is %v", c.Identity, id)}
	}
	return nil
}

// Load reads the calibration file at path and checks that it was made on the
// hardware id. A missing, corrupt, other-version or mismatched file is
// refused with a *FileError that says how to recalibrate.
func Load(path string, id Identity) (*Calibration, error) {
	c, err := LoadAny(path)
	if err != nil {
		return nil, err
	}
	if c.Identity != id {
		return nil, &FileError{Path: path, Kind: ErrMismatch, Detail: fmt.Sprintf("it was made on %v, but this board is %v", c.Identity, id)}
	}
	return c, nil
}

// LoadAny reads the calibration file at path without checking which hardware
// it belongs to.
func LoadAny(path string) (*Calibration, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &FileError{Path: path, Kind: ErrMissing, Detail: "the board was never calibrated"}
	}
	if err != nil {
		return nil, fmt.Errorf("calibration: read %s: %w", path, err)
	}
	c, err := Decode(data)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) {
			fe.Path = path
		}
		return nil, err
	}
	return c, nil
}

// Save writes the calibration file at path atomically: a reader sees the old
// file or the new one, never a half-written one, even across a power cut.
func Save(path string, c *Calibration) error {
	data, err := Encode(c)
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}

// writeAtomic writes data to a temporary file beside path, syncs it, renames
// it over path and syncs the directory.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("calibration: write %s: %w", path, err)
	}
	name := tmp.Name()
	fail := func(err error) error {
		tmp.Close()
		os.Remove(name)
		return fmt.Errorf("calibration: write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o640); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return fmt.Errorf("calibration: write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return fmt.Errorf("calibration: write %s: %w", path, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("calibration: sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("calibration: sync %s: %w", dir, err)
	}
	return nil
}
