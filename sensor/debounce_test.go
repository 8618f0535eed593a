package sensor_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/hwtest"
	"github.com/boardd/boardd/sensor"
	"github.com/boardd/boardd/trace"
)

func lichessGames(t *testing.T) []hwtest.Game {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "hwtest", "testdata", "lichess-2024-12.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := hwtest.ReadPGN(f, "lichess-2024-12.pgn")
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// TestFramesDebounceToTheEvents runs frame traces through a debouncer and
// requires exactly the events of the event trace, at the same times: the
// bounce never leaks through and every change survives.
func TestFramesDebounceToTheEvents(t *testing.T) {
	games := lichessGames(t)[:20]
	s, err := hwtest.NewSynthesiser(hwtest.SynthOptions{Seed: 3, Style: hwtest.HardStyle()})
	if err != nil {
		t.Fatal(err)
	}
	bounced := 0
	for i := range games {
		g := &games[i]
		events, err := s.Events(g, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		frames, err := s.Frames(events, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		start := g.Start
		d := sensor.NewDebouncer(start.Occupancy(), s.Options().Debounce)
		var got []sensor.Event
		changes := 0
		for _, l := range frames {
			if l.Kind != trace.Frame {
				continue
			}
			got = d.Advance(l.T, got)
			got = d.Frame(l.T, l.Occupancy, got)
			changes++
		}
		got = d.Advance(time.Hour, got)
		var want []sensor.Event
		for _, l := range events {
			switch l.Kind {
			case trace.Lift:
				want = append(want, sensor.Event{T: l.T, Square: l.Square, Kind: sensor.Lift})
			case trace.Place:
				want = append(want, sensor.Event{T: l.T, Square: l.Square, Kind: sensor.Place})
			}
		}
		if !reflect.DeepEqual(got, want) {
			n := 0
			for n < len(got) && n < len(want) && got[n] == want[n] {
				n++
			}
			t.Fatalf("%s: debounced frames differ from the events at event %d: got %v, want %v", g.Name, n+1, got[n:min(n+3, len(got))], want[n:min(n+3, len(want))])
		}
		bounced += changes - len(want)
	}
	if bounced == 0 {
		t.Error("no frame bounced: the frames have no contact bounce")
	}
}

// A flicker shorter than the window is never reported; a change that holds
// is reported once, stamped with the time it matured.
func TestWindow(t *testing.T) {
	e2 := board.Square(12)
	start := board.Start()
	occ := start.Occupancy()
	for _, tc := range []struct {
		name   string
		frames []struct {
			at  time.Duration
			occ board.Occupancy
		}
		want []sensor.Event
	}{
		{"flicker", []struct {
			at  time.Duration
			occ board.Occupancy
		}{{10 * time.Millisecond, occ.Without(e2)}, {25 * time.Millisecond, occ}}, nil},
		{"lift", []struct {
			at  time.Duration
			occ board.Occupancy
		}{{10 * time.Millisecond, occ.Without(e2)}}, []sensor.Event{{T: 30 * time.Millisecond, Square: e2, Kind: sensor.Lift}}},
	} {
		d := sensor.NewDebouncer(occ, 0)
		if d.Window() != sensor.DefaultDebounce {
			t.Fatalf("window %v, want the default %v", d.Window(), sensor.DefaultDebounce)
		}
		var got []sensor.Event
		for _, f := range tc.frames {
			got = d.Advance(f.at, got)
			got = d.Frame(f.at, f.occ, got)
		}
		got = d.Advance(time.Second, got)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: events %v, want %v", tc.name, got, tc.want)
		}
	}
}
