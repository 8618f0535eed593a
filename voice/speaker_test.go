package voice

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// wav is what a test reads of a WAV file: its rate and its 16-bit mono or
// interleaved samples.
type wav struct {
	rate     int
	channels int
	samples  []int16
}

// duration is how long the WAV plays.
func (w wav) duration() time.Duration {
	if w.rate == 0 || w.channels == 0 {
		return 0
	}
	return time.Duration(len(w.samples)/w.channels) * time.Second / time.Duration(w.rate)
}

// rms is the samples' root mean square, 0 for silence, 32767 at full scale.
func (w wav) rms() float64 {
	var sum float64
	for _, s := range w.samples {
		sum += float64(s) * float64(s)
	}
	if len(w.samples) == 0 {
		return 0
	}
	return math.Sqrt(sum / float64(len(w.samples)))
}

// readWAV reads a RIFF WAVE file of 16-bit PCM, as espeak-ng -w writes it.
// espeak-ng writes its header before it knows the length (0x7fffffff
// when it streams): the data chunk runs to the end of the file.
func readWAV(data []byte) (wav, error) {
	if len(data) < 12 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return wav{}, errors.New("not a RIFF WAVE file")
	}
	var w wav
	bits := 0
	for p := 12; p+8 <= len(data); {
		id, size := string(data[p:p+4]), int(binary.LittleEndian.Uint32(data[p+4:p+8]))
		body := data[p+8:]
		switch id {
		case "fmt ":
			if len(body) < 16 {
				return wav{}, errors.New("short fmt chunk")
			}
			if f := binary.LittleEndian.Uint16(body[0:2]); f != 1 {
				return wav{}, fmt.Errorf("format %d, want PCM (1)", f)
			}
			w.channels = int(binary.LittleEndian.Uint16(body[2:4]))
			w.rate = int(binary.LittleEndian.Uint32(body[4:8]))
			bits = int(binary.LittleEndian.Uint16(body[14:16]))
		case "data":
			if bits != 16 {
				return wav{}, fmt.Errorf("%d bits a sample, want 16", bits)
			}
			if size < 0 || size > len(body) {
				size = len(body) // streamed: to the end of the file
			}
			for i := 0; i+1 < size; i += 2 {
				w.samples = append(w.samples, int16(binary.LittleEndian.Uint16(body[i:i+2])))
			}
			return w, nil
		}
		p += 8 + size + size&1
	}
	return wav{}, errors.New("no data chunk")
}

func TestReadWAV(t *testing.T) {
	header := func(dataSize uint32, samples ...int16) []byte {
		b := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
		b = binary.LittleEndian.AppendUint32(b, 16)
		b = binary.LittleEndian.AppendUint16(b, 1)
		b = binary.LittleEndian.AppendUint16(b, 1)
		b = binary.LittleEndian.AppendUint32(b, 4)
		b = binary.LittleEndian.AppendUint32(b, 8)
		b = binary.LittleEndian.AppendUint16(b, 2)
		b = binary.LittleEndian.AppendUint16(b, 16)
		b = append(b, "data"...)
		b = binary.LittleEndian.AppendUint32(b, dataSize)
		for _, s := range samples {
			b = binary.LittleEndian.AppendUint16(b, uint16(s))
		}
		return b
	}
	for _, c := range []struct {
		name    string
		data    []byte
		n       int
		dur     time.Duration
		rms     float64
		wantErr string
	}{
		{"sized", header(8, 1000, -1000, 1000, -1000), 4, time.Second, 1000, ""},
		{"streamed", header(0x7fffffff, 0, 0), 2, 500 * time.Millisecond, 0, ""},
		{"not a wav", []byte("garbage garbage"), 0, 0, 0, "not a RIFF"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := readWAV(c.data)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("readWAV: %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(w.samples) != c.n || w.duration() != c.dur || w.rms() != c.rms {
				t.Errorf("got %d samples, %v, rms %v; want %d, %v, %v", len(w.samples), w.duration(), w.rms(), c.n, c.dur, c.rms)
			}
		})
	}
}

// needEspeak returns espeak-ng's path, or fails the test (CI installs it;
// a test that needs it does not pass silently without it).
func needEspeak(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath(Program)
	if err != nil {
		if os.Getenv("BOARDD_SKIP_ESPEAK") != "" {
			t.Skip("espeak-ng not installed (BOARDD_SKIP_ESPEAK set)")
		}
		t.Fatalf("espeak-ng not installed (apt install espeak-ng, or set BOARDD_SKIP_ESPEAK=1): %v", err)
	}
	return path
}

// speakOne runs a speaker on one line and returns what it reported of it.
func speakOne(t *testing.T, o SpeakerOptions, line string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan error, 1)
	o.Spoken = func(_ string, err error) { done <- err }
	s := NewSpeaker(o)
	go s.Run(ctx)
	s.Say(line)
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		t.Fatalf("the speaker never finished %q", line)
		return nil
	}
}

// TestEspeakRendersTheWords has the real espeak-ng render lines to WAV
// files: the sound is not silent and lasts about as long as the words at
// espeak-ng's default 175 words a minute.
func TestEspeakRendersTheWords(t *testing.T) {
	path := needEspeak(t)
	dir := t.TempDir()
	for _, c := range []struct {
		lang Language
		line string
	}{
		{English, "knight from g1 to f3, check"},
		{German, "Springer Gustav eins Felix drei"},
		{English, "Irregularity by White: a touched man not moved. Article 4.3.1. Black chooses. Option 1: Let the move stand. Option 2: He must move the knight on g1."},
	} {
		t.Run(string(c.lang)+" "+c.line[:10], func(t *testing.T) {
			file := filepath.Join(dir, fmt.Sprintf("%s-%d.wav", c.lang, len(c.line)))
			if err := speakOne(t, SpeakerOptions{Path: path, Voice: c.lang.Voice(), Args: []string{"-w", file}}, c.line); err != nil {
				t.Fatalf("espeak-ng: %v", err)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			w, err := readWAV(data)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			words := len(strings.Fields(c.line))
			want := time.Duration(words) * time.Minute / 175
			if d := w.duration(); d < want/2 || d > want*2 {
				t.Errorf("%d words lasted %v, want about %v (between half and twice)", words, d, want)
			}
			if r := w.rms(); r < 300 {
				t.Errorf("the sound is silent: rms %.0f of 32767", r)
			}
		})
	}
}

// script writes an executable shell script standing in for espeak-ng.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-espeak")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSpeakerFaults: a speech program that is missing, crashes, hangs or
// writes garbage is a fault naming what it did; the speaker goes on.
func TestSpeakerFaults(t *testing.T) {
	now := func(ctx context.Context, d time.Duration) error { return nil } // the line's time is up at once
	never := func(ctx context.Context, d time.Duration) error { <-ctx.Done(); return ctx.Err() }
	for _, c := range []struct {
		name  string
		path  string
		wait  func(context.Context, time.Duration) error
		fault Fault
		says  string
	}{
		{"missing", filepath.Join(t.TempDir(), "no-such-espeak"), never, FaultMissing, "cannot start"},
		{"crashing", script(t, "echo 'segmentation fault' >&2; exit 139"), never, FaultCrashed, "segmentation fault"},
		{"hanging", script(t, "exec sleep 60"), now, FaultHung, "killed"},
		{"garbage", script(t, "cat; echo '\\x00\\x01 what?'"), never, FaultGarbage, "what?"},
		{"no sound device", script(t, "echo \"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\" >&2; echo 'ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default' >&2"), never, FaultNoSound, "no sound device"},
		{"well", script(t, "cat >/dev/null"), never, 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := speakOne(t, SpeakerOptions{Path: c.path, Wait: c.wait}, "pawn from e2 to e4")
			if c.fault == 0 {
				if err != nil {
					t.Fatalf("a well-behaved program: %v", err)
				}
				return
			}
			var fe *FaultError
			if !errors.As(err, &fe) || fe.Fault != c.fault {
				t.Fatalf("got %v, want a %v fault", err, c.fault)
			}
			if !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), "pawn from e2 to e4") {
				t.Errorf("%q does not say %q and the line", err, c.says)
			}
		})
	}
}

// TestSpeakerNeverBlocksAndGivesUp: lines said while the program is
// failing are queued without waiting; after MaxFaults in a row the speaker
// drops lines until Reset, keeping the fault to show.
func TestSpeakerNeverBlocksAndGivesUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	spoken := make(chan error, 100)
	s := NewSpeaker(SpeakerOptions{Path: script(t, "exit 1"), MaxFaults: 2, Queue: 3,
		Wait:   func(ctx context.Context, d time.Duration) error { <-ctx.Done(); return ctx.Err() },
		Retry:  func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
		Spoken: func(_ string, err error) { spoken <- err }})
	for i := range 10 {
		s.Say(fmt.Sprintf("line %d", i)) // before Run: nothing is spoken, nothing blocks
	}
	if d := s.Dropped(); d != 7 {
		t.Errorf("a queue of 3 took 10 lines and dropped %d, want 7", d)
	}
	go s.Run(ctx)
	for range 2 {
		if err := <-spoken; err == nil {
			t.Fatal("a failing program spoke")
		}
	}
	s.Say("after giving up")
	if s.Fault() == nil {
		t.Error("the fault is not kept to show")
	}
	select {
	case err := <-spoken:
		t.Fatalf("the speaker tried again after giving up: %v", err)
	default:
	}
	if d := s.Dropped(); d != 9 {
		t.Errorf("dropped %d, want 9 (7, the third queued, the one after giving up)", d)
	}
	s.Reset()
	s.Say("after reset")
	if err := <-spoken; err == nil {
		t.Fatal("a failing program spoke after reset")
	}
}

// TestSpeakerTriesAgain: a speaker that gave up tries its program again
// when Retry says so, and speaks once the program works (a sound card
// plugged back).
func TestSpeakerTriesAgain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	broken := filepath.Join(t.TempDir(), "broken")
	if err := os.WriteFile(broken, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	retry := make(chan struct{})
	spoken := make(chan error, 100)
	s := NewSpeaker(SpeakerOptions{Path: script(t, "test -e "+broken+" && exit 1; exit 0"), MaxFaults: 2,
		Retry: func(ctx context.Context) error {
			select {
			case <-retry:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		},
		Spoken: func(_ string, err error) { spoken <- err }})
	go s.Run(ctx)
	s.Say("one")
	s.Say("two")
	for range 2 {
		if err := <-spoken; err == nil {
			t.Fatal("a failing program spoke")
		}
	}
	s.Say("while given up")
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	close(retry)
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.Say("again")
		select {
		case err := <-spoken:
			if err != nil {
				t.Fatalf("after the retry: %v", err)
			}
			if s.Fault() != nil {
				t.Errorf("the fault %v is still shown after a line was spoken", s.Fault())
			}
			return
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the speaker never tried again")
		}
	}
}
