//go:build !race

package hwtest

const raceEnabled = false
