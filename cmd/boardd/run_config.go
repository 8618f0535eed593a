package main

// configure fills d.opts from the configuration file and the flags.
// (Owned by the hardware/config work: issue 7.)
func (d *daemon) configure() error {
	d.opts.Laws = d.flags.laws
	if d.opts.Laws == "" {
		d.opts.Laws = "fide2023"
	}
	d.opts.Tournament = d.flags.tournament
	d.opts.Logger = d.log
	return nil
}
