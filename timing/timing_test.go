package timing

import (
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
