package logrepeat

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/timing"
)

func TestAllow(t *testing.T) {
	type step struct {
		at   time.Duration
		key  string
		ok   bool
		held int
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"the first line passes", []step{{0, "a", true, 0}}},
		{"a repeat within the interval is held", []step{{0, "a", true, 0}, {time.Second, "a", false, 0}, {9 * time.Second, "a", false, 0}}},
		{"the next after the interval passes and counts the held", []step{
			{0, "a", true, 0}, {time.Second, "a", false, 0}, {2 * time.Second, "a", false, 0}, {10 * time.Second, "a", true, 2}, {11 * time.Second, "a", false, 0}, {25 * time.Second, "a", true, 1},
		}},
		{"keys are apart", []step{{0, "a", true, 0}, {time.Second, "b", true, 0}, {2 * time.Second, "a", false, 0}, {3 * time.Second, "b", false, 0}}},
		{"a line after a quiet spell passes with nothing held", []step{{0, "a", true, 0}, {time.Hour, "a", true, 0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var clock timing.Virtual
			l := New(&clock, 10*time.Second)
			for i, s := range c.steps {
				clock.Set(s.at)
				ok, held := l.Allow(s.key)
				if ok != s.ok || held != s.held {
					t.Errorf("step %d (%v, %q): Allow = %v, %d; want %v, %d", i, s.at, s.key, ok, held, s.ok, s.held)
				}
			}
		})
	}
}

// A flood of one line a millisecond for 90 s logs one line each interval,
// each saying how many it stands for, and nothing is counted twice.
func TestLogFlood(t *testing.T) {
	var clock timing.Virtual
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	l := New(&clock, 10*time.Second)
	const n = 90_000
	logged := 0
	for i := range n {
		clock.Set(time.Duration(i) * time.Millisecond)
		if l.Log(log, slog.LevelInfo, "up", "board connected", "peer", "rp2040") {
			logged++
		}
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if logged != 9 || len(lines) != 9 {
		t.Fatalf("%d lines logged (%d written), want 9:\n%s", logged, len(lines), buf.String())
	}
	total := 0
	for i, line := range lines {
		var held int
		if i == 0 {
			if strings.Contains(line, "suppressed") {
				t.Errorf("the first line says lines were held: %s", line)
			}
			total++
			continue
		}
		if _, err := fmt.Sscanf(line[strings.Index(line, "suppressed="):], "suppressed=%d", &held); err != nil {
			t.Fatalf("line %d: %q: %v", i, line, err)
		}
		total += held + 1
	}
	// The last interval's lines after the last that passed are still held.
	if rest := n - total; rest < 0 || rest >= 10_000 {
		t.Errorf("the lines logged stand for %d of %d", total, n)
	}
}

// Keys from outside cannot grow the limiter without bound.
func TestKeysBounded(t *testing.T) {
	var clock timing.Virtual
	l := New(&clock, time.Minute)
	for i := range 10 * maxKeys {
		if ok, _ := l.Allow(fmt.Sprint("10.0.0.", i)); !ok {
			t.Fatalf("key %d held at its first line", i)
		}
	}
	if n := len(l.keys); n > maxKeys {
		t.Errorf("%d keys remembered, want at most %d", n, maxKeys)
	}
}

func BenchmarkAllowHeld(b *testing.B) {
	var clock timing.Virtual
	l := New(&clock, time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		l.Allow("up")
	}
}
