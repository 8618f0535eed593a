package hwtest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/boardd/boardd/serialport"
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

// OpenPTY opens a pair with its slave side in raw mode. If link is not
// empty it is made (or atomically replaced as) a symlink to the slave
// device.
func OpenPTY(link string) (*PTY, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("pty: open: %w", err)
	}
	p := &PTY{slave: s, device: s.Name(), link: link}
	// pty.Open leaves the master blocking, and a blocked read would keep it
	// open after Close; a non-blocking duplicate goes through the poller,
	// so Close interrupts reads and deadlines work.
	fd, err := unix.Dup(int(m.Fd()))
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

// Cable is how the rig reaches boardd. Plug connects it and returns the
// rig's end; Unplug disconnects it.
type Cable interface {
	Plug() (io.ReadWriteCloser, error)
	Unplug() error
	String() string
}

// PTYCable joins the rig to boardd by pseudo-terminal pairs: each Plug opens
// a new pair and points Link at its slave, as replugging a USB board makes a
// new device behind the same /dev/serial/by-id name.
type PTYCable struct {
	Link string
	cur  *PTY
}

// NewPTYCable returns a cable whose boardd end is the symlink link.
func NewPTYCable(link string) (*PTYCable, error) {
	abs, err := filepath.Abs(link)
	if err != nil {
		return nil, err
	}
	return &PTYCable{Link: abs}, nil
}

// Plug opens a new pair.
func (c *PTYCable) Plug() (io.ReadWriteCloser, error) {
	if c.cur != nil {
		return nil, errors.New("pty cable: already plugged")
	}
	p, err := OpenPTY(c.Link)
	if err != nil {
		return nil, err
	}
	c.cur = p
	return p, nil
}

// Unplug closes the pair.
func (c *PTYCable) Unplug() error {
	if c.cur == nil {
		return nil
	}
	err := c.cur.Close()
	c.cur = nil
	return err
}

func (c *PTYCable) String() string { return "pty " + c.Link }

// PortCable joins the rig to boardd through a serial port (a USB-serial
// adapter crossed to boardd's, or one end of a socat pty pair). Unplug
// closes the port; boardd then sees the board fall silent.
type PortCable struct {
	Path string
	Baud int
	cur  io.ReadWriteCloser
}

// Plug opens the port through go.bug.st/serial.
func (c *PortCable) Plug() (io.ReadWriteCloser, error) {
	if c.cur != nil {
		return nil, errors.New("port cable: already plugged")
	}
	baud := c.Baud
	if baud == 0 {
		baud = serialport.DefaultBaud
	}
	p, err := serialport.OpenPort(c.Path, baud)
	if err != nil {
		return nil, fmt.Errorf("rig: open %s: %w", c.Path, err)
	}
	c.cur = p
	return p, nil
}

// Unplug closes the port.
func (c *PortCable) Unplug() error {
	if c.cur == nil {
		return nil
	}
	err := c.cur.Close()
	c.cur = nil
	return err
}

func (c *PortCable) String() string { return "serial port " + c.Path }
