// Package ptypair opens pseudo-terminal pairs that stand in for a board's
// or an app's serial cable in tests: one end for the test, the other a
// device (or a stable symlink to it) that boardd opens through
// go.bug.st/serial exactly as it would a USB port or a USB gadget's port.
package ptypair

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// PTY is a pseudo-terminal pair standing in for a board's USB cable: the
// rig reads and writes the master side; boardd opens the slave device (or a
// stable symlink to it, as udev makes /dev/serial/by-id/...) through
// go.bug.st/serial exactly as it would a USB port. Closing the PTY is pulling
// the cable: boardd's reads fail and the device disappears.
type PTY struct {
	master *os.File
	slave  *os.File // held so the master never reads EIO while boardd is away
	device string
	link   string
}

// Open opens a pair with its slave side in raw mode. If link is not
// empty it is made (or atomically replaced as) a symlink to the slave
// device.
func Open(link string) (*PTY, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("pty: open: %w", err)
	}
	p := &PTY{slave: s, device: s.Name(), link: link}
	// pty.Open leaves the master blocking, and a blocked read would keep it
	// open after Close; a non-blocking duplicate goes through the poller,
	// so Close interrupts reads and deadlines work. It is closed on exec: a
	// boardd started by a test must not hold the master open, or the port
	// would never vanish from under it.
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	m.Close()
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("pty: dup: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		s.Close()
		return nil, fmt.Errorf("pty: non-blocking: %w", err)
	}
	p.master = os.NewFile(uintptr(fd), "/dev/ptmx")
	if err := makeRaw(int(s.Fd())); err != nil {
		p.Close()
		return nil, fmt.Errorf("pty: raw mode on %s: %w", p.device, err)
	}
	if link != "" {
		tmp := link + ".new"
		os.Remove(tmp)
		if err := os.Symlink(p.device, tmp); err != nil {
			p.Close()
			return nil, fmt.Errorf("pty: %w", err)
		}
		if err := os.Rename(tmp, link); err != nil {
			os.Remove(tmp)
			p.Close()
			return nil, fmt.Errorf("pty: %w", err)
		}
	}
	return p, nil
}

// makeRaw puts a terminal in raw mode: no echo, no line editing, no
// translation, 8-bit bytes.
func makeRaw(fd int) error {
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		return err
	}
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	return unix.IoctlSetTermios(fd, unix.TCSETS, t)
}

// Path returns what boardd should open: the symlink if there is one, else
// the slave device.
func (p *PTY) Path() string {
	if p.link != "" {
		return p.link
	}
	return p.device
}

// Device returns the slave device (/dev/pts/N).
func (p *PTY) Device() string { return p.device }

// Read reads what boardd wrote.
func (p *PTY) Read(b []byte) (int, error) { return p.master.Read(b) }

// Write writes to boardd. A write that cannot go through within a second
// (boardd not reading) fails rather than blocking the rig.
func (p *PTY) Write(b []byte) (int, error) {
	_ = p.master.SetWriteDeadline(time.Now().Add(time.Second))
	return p.master.Write(b)
}

// SetReadDeadline bounds the next reads (for tests that must not hang).
func (p *PTY) SetReadDeadline(t time.Time) error { return p.master.SetReadDeadline(t) }

// Close pulls the cable: both sides close, the device disappears and the
// symlink is removed.
func (p *PTY) Close() error {
	var errs []error
	if p.link != "" {
		if target, err := os.Readlink(p.link); err == nil && target == p.device {
			errs = append(errs, os.Remove(p.link))
		}
	}
	errs = append(errs, p.master.Close(), p.slave.Close())
	return errors.Join(errs...)
}
