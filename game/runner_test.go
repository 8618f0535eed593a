package game

import (
	"context"
	"testing"
	"time"

	"github.com/boardd/boardd/timing"
)

// Do returns nil only when its function ran: a call whose context has ended
// by the time its turn comes on the loop returns the context's error, so
// that a caller never waits for an answer the function never gave.
func TestDoReturnsNilOnlyWhenRun(t *testing.T) {
	g, err := New(Options{Laws: "fide2023"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRunner(g, &timing.Virtual{})
	runCtx, stop := context.WithCancel(context.Background())
	loopDone := make(chan struct{})
	go func() {
		defer close(loopDone)
		_ = r.Run(runCtx)
	}()
	defer func() {
		stop()
		<-loopDone
	}()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 2000 { // which select case wins is not forced: try often
		ran := false
		if err := r.Do(gone, func(*Game, time.Duration) { ran = true }); err == nil {
			t.Fatalf("try %d: Do returned nil for a call whose context had ended (ran: %v)", i, ran)
		}
	}
	// A live call still runs and returns nil.
	ran := false
	if err := r.Do(runCtx, func(*Game, time.Duration) { ran = true }); err != nil || !ran {
		t.Errorf("a live call: err %v, ran %v", err, ran)
	}
}
