package lichess

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/boardd/boardd/timing"
)

// Lichess is out of reach (worth trying again) when it does not answer, or
// answers 5xx or 429; any other answer is final.
func TestUnreachable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"no answer", &TransportError{Method: "GET", Path: "/api/account", Err: errors.New("dial tcp: lookup lichess.org: no such host")}, true},
		{"no answer, wrapped", fmt.Errorf("check: %w", &TransportError{Method: "GET", Path: "/api/account", Err: errors.New("EOF")}), true},
		{"500", &APIError{Status: 500}, true},
		{"502", &APIError{Status: 502}, true},
		{"503", &APIError{Status: 503}, true},
		{"429", &APIError{Status: 429}, true},
		{"401", &APIError{Status: 401}, false},
		{"403", &APIError{Status: 403}, false},
		{"400", &APIError{Status: 400}, false},
		{"404", &APIError{Status: 404}, false},
		{"token rejected", fmt.Errorf("lichess: %w", ErrTokenRejected), false},
		{"other", errors.New("lichess: GET /api/account: the answer names no account"), false},
		{"nil", nil, false},
	}
	for _, tc := range tests {
		if got := Unreachable(tc.err); got != tc.want {
			t.Errorf("%s: Unreachable(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

// The backoff doubles from MinBackoff to MaxBackoff; after a 429 it is the
// rate-limit pause left, and doubles again from MinBackoff.
func TestBackoff(t *testing.T) {
	tok, err := NewToken("lip_boarddTestToken0123456789")
	if err != nil {
		t.Fatal(err)
	}
	var clock timing.Virtual
	c, err := New(Options{Token: tok, Clock: &clock, MinBackoff: time.Second, MaxBackoff: 5 * time.Second, RateLimitPause: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	down := &TransportError{Method: "GET", Path: "/api/account", Err: errors.New("EOF")}
	limited := &APIError{Status: 429}
	b := c.NewBackoff()
	var got []time.Duration
	for _, err := range []error{down, down, down, down, down} {
		got = append(got, b.Next(err))
	}
	c.pauseFor(time.Minute)
	clock.Set(clock.Now() + 10*time.Second)
	got = append(got, b.Next(limited), b.Next(down))
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second, 50 * time.Second, time.Second}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", got, want)
	}
}
