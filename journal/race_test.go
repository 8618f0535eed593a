//go:build race

package journal

// raceEnabled: the race detector slows the test that damages a journal byte
// by byte, which then takes every fifth byte.
const raceEnabled = true
