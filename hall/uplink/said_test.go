package uplink

import (
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/wire"
)

// TestSaid: the lines the board says go in its state messages numbered,
// oldest first, at most wire.MaxSaid of them and none older than
// wire.SaidFor, so a line said while the broker was away is never spoken
// late; a say event that is not a line is left out.
func TestSaid(t *testing.T) {
	start := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	type say struct {
		at   time.Duration // after start
		js   string
		many int // said so many times (1 if 0)
	}
	tests := []struct {
		name string
		says []say
		at   time.Duration // the state's time
		want []uint64
	}{
		{"none", nil, time.Second, nil},
		{"two, fresh", []say{{at: 0, js: `{"text":"e4","lang":"en"}`}, {at: time.Second, js: `{"text":"e5","lang":"en"}`}}, 2 * time.Second, []uint64{1, 2}},
		{"the old go", []say{{at: 0, js: `{"text":"e4","lang":"en"}`}, {at: 5 * time.Second, js: `{"text":"e5","lang":"en"}`}}, wire.SaidFor + time.Second, []uint64{2}},
		{"all old", []say{{at: 0, js: `{"text":"e4","lang":"en"}`}}, wire.SaidFor + time.Second, nil},
		{"not lines", []say{{at: 0, js: `not json`}, {at: 0, js: `{"text":"","lang":"en"}`}, {at: 0, js: `{"text":"Nf3","lang":"en"}`}}, time.Second, []uint64{1}},
		{"a burst keeps the last", []say{{at: 0, js: `{"text":"x","lang":"de"}`, many: wire.MaxSaid + 3}}, time.Second, func() []uint64 {
			var out []uint64
			for n := uint64(4); n <= wire.MaxSaid+3; n++ {
				out = append(out, n)
			}
			return out
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now := start
			u := &Uplink{o: Options{Now: func() time.Time { return now }}, log: slog.New(slog.DiscardHandler)}
			for _, s := range tc.says {
				now = start.Add(s.at)
				for range max(s.many, 1) {
					u.addSaidLocked([]byte(s.js))
				}
			}
			now = start.Add(tc.at)
			var got []uint64
			for _, l := range u.saidLocked(now) {
				if l.Text == "" {
					t.Errorf("line %d without words", l.N)
				}
				got = append(got, l.N)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("lines %v, want %v", got, tc.want)
			}
			// Asked again at once, the same lines.
			again := u.saidLocked(now)
			if len(again) != len(got) {
				t.Errorf("asked again: %d lines, want %d", len(again), len(got))
			}
		})
	}
}
