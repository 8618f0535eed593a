// Package systemd holds boardd's systemd unit (boardd.service) and udev
// rules (99-boardd.rules), with tests that check them; it has no code. See
// docs/install.md.
package systemd
