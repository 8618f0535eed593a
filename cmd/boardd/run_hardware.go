package main

// startHardware starts the scanner and LED sink named by the config or
// flags; with none, the board is simulated through the console.
// (Owned by the hardware work: issues 7 and 8.)
func (d *daemon) startHardware() error { return nil }
