package main

import "github.com/boardd/boardd/pipeline"

// openJournal builds d.pipe, replaying the journal of the game in progress.
// (Owned by the journal work: issue 10.)
func (d *daemon) openJournal() error {
	p, err := pipeline.New(d.opts, nil, nil)
	if err != nil {
		return err
	}
	d.pipe = p
	return nil
}

// attachJournal starts recording inputs and rulings once the runner exists.
func (d *daemon) attachJournal() {}

// notifyReady tells systemd the daemon is ready and starts the watchdog.
func (d *daemon) notifyReady() {}
