// Package logrepeat keeps a log line that repeats from flooding the log: a
// serial board resending its handshake in a loop, a client hammering the
// console. Lines are grouped under a key chosen by the caller; the first
// line of a key passes, then at most one an interval, and the next to pass
// says how many were held back in between (the attribute "suppressed").
//
// Time comes from a timing.Clock, so tests drive it in virtual time.
package logrepeat

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/boardd/boardd/timing"
)

// maxKeys bounds the keys remembered, for callers whose keys come from
// outside (a client's address): past it, keys whose interval has run out
// are forgotten (they would pass anyway), and if none has, the whole memory
// starts afresh.
const maxKeys = 1024

// Limiter lets each key's line through at most once an interval. It is safe
// for concurrent use.
type Limiter struct {
	clock timing.Clock
	every time.Duration

	mu   sync.Mutex
	keys map[string]*entry
}

type entry struct {
	last time.Duration // when a line last passed
	held int           // lines held back since
}

// New returns a limiter on clock that lets a key's line through at most
// once every interval.
func New(clock timing.Clock, every time.Duration) *Limiter {
	return &Limiter{clock: clock, every: every, keys: map[string]*entry{}}
}

// Allow reports whether a line under key may be logged now and, when it
// may, how many lines under key were held back since the last that passed.
func (l *Limiter) Allow(key string) (ok bool, held int) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.keys[key]
	if e != nil && now-e.last < l.every {
		e.held++
		return false, 0
	}
	if e == nil {
		if len(l.keys) >= maxKeys {
			l.forget(now)
		}
		e = &entry{}
		l.keys[key] = e
	}
	held, e.last, e.held = e.held, now, 0
	return true, held
}

// forget drops the keys whose interval has run out, or every key when
// none has.
func (l *Limiter) forget(now time.Duration) {
	for k, e := range l.keys {
		if now-e.last >= l.every {
			delete(l.keys, k)
		}
	}
	if len(l.keys) >= maxKeys {
		clear(l.keys)
	}
}

// Log logs msg with args at level on log when key allows it, adding
// "suppressed" with the number of lines held back since the last that
// passed, when some were. It reports whether the line was logged.
func (l *Limiter) Log(log *slog.Logger, level slog.Level, key, msg string, args ...any) bool {
	ok, held := l.Allow(key)
	if !ok {
		return false
	}
	if held > 0 {
		args = append(args, "suppressed", held)
	}
	log.Log(context.Background(), level, msg, args...)
	return true
}
