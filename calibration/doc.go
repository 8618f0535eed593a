// Package calibration turns a board's raw sensor readings into occupancy: it
// learns, square by square, what each Hall sensor reads on an empty square and
// under a man of each colour, sets per-square thresholds with hysteresis
// between them, reads the man's colour where the men's magnet polarity allows,
// and tracks the slow drift of empty squares while the board runs without ever
// tracking a real man away.
//
// It also owns the board's wiring: which sensor channel and which LED index
// is which square, and so which corner is a1. Both are learned by a wizard
// (Calibrate) that lights squares and watches the sensors answer, rather than
// typed by the builder. The result is a versioned calibration file in the
// state directory, written atomically and refused, with a message saying how
// to recalibrate, when it is corrupt or made for other hardware.
//
// The self-test (SelfTest) checks a calibrated board for stuck-on and
// stuck-off sensors, sensors that read two squares, noisy squares and dead
// LEDs, and says whether the board is fit for play.
//
// A simulated analogue board (SimBoard) with per-square gain and offset,
// noise, drift and injectable faults, and a simulated person (SimPerson) who
// follows the wizard's requests, let all of this run without hardware, on
// injected time.
//
// The package knows squares, sensors and LEDs; it knows nothing of chess
// rules or law-sets.
package calibration
