package calibration

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// golden is a calibration file written by this format version, kept so that
// a change that would refuse existing files is noticed.
const golden = "testdata/calibration.json"

func TestGoldenFileLoads(t *testing.T) {
	c, err := LoadAny(golden)
	if err != nil {
		t.Fatal(err)
	}
	if c.Scanner != "sim analogue board (seed 1)" || c.Channels != 64 || c.LEDs != 64 || c.Polarity != Dual {
		t.Errorf("golden header: %+v", c.Identity)
	}
	if c.Squares[0].Channel < 0 || c.Squares[0].White == nil {
		t.Errorf("golden a1: %+v", c.Squares[0])
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	c := plainCalibration(Dual)
	c.Made = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c.LEDs = 64
	for i := range c.Squares {
		c.Squares[i].LED = 63 - i
	}
	c.Squares[9].Flags = []Flag{FlagWeak, FlagNoisy}
	c.Squares[10].Black = nil
	data, err := Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip changed the calibration:\n got %+v\nwant %+v", got.Squares[9], c.Squares[9])
	}
}

func TestSaveIsAtomicAndLoadChecksHardware(t *testing.T) {
	dir := t.TempDir()
	path := Path(dir)
	c := plainCalibration(Dual)
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	c2 := plainCalibration(Single)
	if err := Save(path, c2); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != FileName {
		t.Errorf("state directory holds %v, want only %s (no temporary files left)", entries, FileName)
	}
	got, err := Load(path, c.Identity)
	if err != nil {
		t.Fatal(err)
	}
	if got.Polarity != Single {
		t.Errorf("Load returned the first file, not the second")
	}
	// A file that cannot be written leaves the old one whole.
	if err := Save(filepath.Join(dir, "no-such-dir", FileName), c); err == nil {
		t.Errorf("Save into a missing directory succeeded")
	}
}

func TestRefusals(t *testing.T) {
	valid, err := Encode(plainCalibration(Dual))
	if err != nil {
		t.Fatal(err)
	}
	id := plainCalibration(Dual).Identity
	withBody := func(edit func(map[string]any)) []byte {
		var env map[string]any
		json.Unmarshal(valid, &env)
		body := env["body"].(map[string]any)
		edit(body)
		raw, _ := json.Marshal(body)
		env["body"] = json.RawMessage(raw)
		env["checksum"] = checksum(raw)
		out, _ := json.Marshal(env)
		return out
	}
	for _, tc := range []struct {
		name string
		data []byte // nil: no file
		id   Identity
		kind error
		says string
	}{
		{"missing", nil, id, ErrMissing, "was never calibrated; run 'boardd calibrate' to calibrate it"},
		{"empty", []byte{}, id, ErrCorrupt, "not valid JSON"},
		{"truncated", valid[:len(valid)/2], id, ErrCorrupt, "not valid JSON"},
		{"not ours", []byte(`{"format":"something-else","version":1}`), id, ErrCorrupt, "not a boardd calibration file"},
		{"newer version", bytes.Replace(valid, []byte(`"version": 1`), []byte(`"version": 2`), 1), id, ErrVersion, "newer boardd"},
		{"edited by hand", bytes.Replace(valid, []byte(`"mean": 1400`), []byte(`"mean": 1401`), 1), id, ErrCorrupt, "checksum mismatch"},
		{"no body", []byte(`{"format":"boardd-calibration","version":1,"checksum":"x"}`), id, ErrCorrupt, "body is missing"},
		{"63 squares", withBody(func(b map[string]any) { b["squares"] = b["squares"].([]any)[:63] }), id, ErrCorrupt, "63 squares"},
		{"two squares on one channel", withBody(func(b map[string]any) {
			b["squares"].([]any)[5].(map[string]any)["channel"] = 4
		}), id, ErrCorrupt, "e1 and f1 both claim channel 4"},
		{"unknown field", withBody(func(b map[string]any) { b["gain"] = 3 }), id, ErrCorrupt, "unknown field"},
		{"bad thresholds", withBody(func(b map[string]any) { b["off"] = 0.9 }), id, ErrCorrupt, "thresholds"},
		{"other scanner", valid, Identity{Scanner: "ads1115 on /dev/i2c-1", Channels: 64}, ErrMismatch, `made on "test" with 64 analogue sensors, but this board is "ads1115 on /dev/i2c-1"`},
		{"other channel count", valid, Identity{Scanner: "test", Channels: 72}, ErrMismatch, "72 analogue sensors"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := Path(t.TempDir())
			if tc.data != nil {
				if err := os.WriteFile(path, tc.data, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(path, tc.id)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("Load: %v, want %v", err, tc.kind)
			}
			msg := err.Error()
			remedy := "run 'boardd calibrate' to recalibrate"
			if tc.kind == ErrMissing {
				remedy = "run 'boardd calibrate' to calibrate it"
			}
			for _, want := range []string{path, tc.says, remedy} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not say %q", msg, want)
				}
			}
			if !IsRefusal(err) {
				t.Errorf("IsRefusal(%v) = false", err)
			}
		})
	}
}

// FuzzDecode: the loader never panics, and what it accepts survives a round
// trip unchanged.
func FuzzDecode(f *testing.F) {
	if data, err := os.ReadFile(golden); err == nil {
		f.Add(data)
	}
	valid, _ := Encode(plainCalibration(Dual))
	f.Add(valid)
	f.Add([]byte(`{"format":"boardd-calibration","version":1,"checksum":"","body":{}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data)
		if err != nil {
			if !IsRefusal(err) {
				t.Fatalf("Decode error %v is not a refusal", err)
			}
			return
		}
		again, err := Encode(c)
		if err != nil {
			t.Fatalf("accepted calibration does not encode: %v", err)
		}
		c2, err := Decode(again)
		if err != nil {
			t.Fatalf("re-encoded calibration refused: %v", err)
		}
		if !reflect.DeepEqual(c, c2) {
			t.Fatalf("round trip changed the calibration")
		}
		if _, err := NewClassifier(c, ClassifierOptions{}); err != nil {
			t.Fatalf("accepted calibration has no classifier: %v", err)
		}
	})
}
