//go:build race

package hwtest

// raceEnabled is true under the race detector, which slows the game
// tenfold: the corpus tests then replay a sample.
const raceEnabled = true
