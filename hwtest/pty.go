package hwtest

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/boardd/boardd/ptypair"
	"github.com/boardd/boardd/serialport"
)

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
	cur  *ptypair.PTY
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
	p, err := ptypair.Open(c.Link)
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
