package timing

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestVirtualNeverRunsBackwards(t *testing.T) {
	var v Virtual
	steps := []struct {
		set, want time.Duration
	}{{5, 5}, {3, 5}, {10, 10}, {10, 10}, {0, 10}}
	for _, s := range steps {
		v.Set(s.set)
		if got := v.Now(); got != s.want {
			t.Errorf("after Set(%v): Now() = %v, want %v", s.set, got, s.want)
		}
	}
}

func TestRealAdvances(t *testing.T) {
	r := NewReal()
	a := r.Now()
	time.Sleep(2 * time.Millisecond)
	if b := r.Now(); b <= a {
		t.Errorf("real clock did not advance: %v then %v", a, b)
	}
}

func TestEarliest(t *testing.T) {
	if Earliest(3, Never) != 3 || Earliest(Never, 2) != 2 || Earliest(Never, Never) != Never {
		t.Error("Earliest picked the wrong deadline")
	}
}

// Wait and Until wait in real time: a cancelled context ends the wait with
// its error, at once even for an hour; a deadline passed or a wait not
// positive returns at once; a short wait passes its time.
func TestWait(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	clock := NewReal()
	for _, c := range []struct {
		name    string
		ctx     context.Context
		wait    func(ctx context.Context) error
		want    error
		atLeast time.Duration
	}{
		{"an hour, cancelled", cancelled, func(ctx context.Context) error { return Wait(ctx, time.Hour) }, context.Canceled, 0},
		{"nothing, cancelled", cancelled, func(ctx context.Context) error { return Wait(ctx, 0) }, context.Canceled, 0},
		{"nothing", context.Background(), func(ctx context.Context) error { return Wait(ctx, -time.Second) }, nil, 0},
		{"5ms", context.Background(), func(ctx context.Context) error { return Wait(ctx, 5*time.Millisecond) }, nil, 5 * time.Millisecond},
		{"until an hour on, cancelled", cancelled, func(ctx context.Context) error { return Until(clock)(ctx, clock.Now()+time.Hour) }, context.Canceled, 0},
		{"until a deadline passed", context.Background(), func(ctx context.Context) error { return Until(clock)(ctx, 0) }, nil, 0},
		{"until 5ms on", context.Background(), func(ctx context.Context) error { return Until(clock)(ctx, clock.Now()+5*time.Millisecond) }, nil, 5 * time.Millisecond},
		{"sleep, cancelled", cancelled, func(ctx context.Context) error {
			if Sleep(ctx, time.Hour) {
				return nil
			}
			return ctx.Err()
		}, context.Canceled, 0},
	} {
		start := time.Now()
		err := c.wait(c.ctx)
		took := time.Since(start)
		if !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if took < c.atLeast || took > c.atLeast+time.Second {
			t.Errorf("%s: took %v, want %v (and not much more)", c.name, took, c.atLeast)
		}
	}
}
