package main

// startConsole serves the web console and the simulated board.
// (Owned by the console work: issue 11.)
func (d *daemon) startConsole() error { return nil }
