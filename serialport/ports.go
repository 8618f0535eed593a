// Package serialport connects boardd to a board whose microcontroller
// speaks the link protocol over a serial port (USB CDC, a USB-serial adapter
// or a UART): it finds and opens the port with go.bug.st/serial, keeps the
// link up across unplugging and replugging with backoff, and joins the board
// to a game: its scans go in as frames, its buttons and choices as
// inputs, the game's LED frames and reports go back out, and a lost link
// shows as a fault without losing the game.
//
// The protocol itself is package link; docs/serial-protocol.md specifies it.
package serialport

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.bug.st/serial"
	"go.bug.st/serial/enumerator"
)

// PortInfo describes a serial port that may be a board.
type PortInfo struct {
	Path         string   // the device, e.g. /dev/ttyACM0
	USB          bool     // a USB device (CDC ACM or a USB-serial adapter)
	VID, PID     string   // USB vendor and product ids, 4 upper-case hex digits
	Serial       string   // USB serial number
	Manufacturer string   // USB manufacturer string
	Product      string   // USB product string
	Aliases      []string // stable names of the same device (/dev/serial/by-id/...)
}

// USBID returns "VID:PID", or "" for a port that is not USB.
func (p PortInfo) USBID() string {
	if !p.USB {
		return ""
	}
	return p.VID + ":" + p.PID
}

// ListOptions say where List looks; the zero value looks where the system
// keeps serial devices.
type ListOptions struct {
	// ByID is the directory of stable symlinks (default /dev/serial/by-id).
	ByID string
}

// List returns the serial ports that may be a board, USB ports first, each
// with its USB identity where the system knows it.
func List(o ListOptions) ([]PortInfo, error) {
	if o.ByID == "" {
		o.ByID = "/dev/serial/by-id"
	}
	paths, err := serial.GetPortsList()
	if err != nil {
		return nil, fmt.Errorf("serialport: list ports: %w", err)
	}
	details, derr := enumerator.GetDetailedPortsList()
	byPath := map[string]*enumerator.PortDetails{}
	for _, d := range details {
		if d != nil && d.Name != "" {
			byPath[d.Name] = d
		}
	}
	aliases := stableNames(o.ByID)
	var out []PortInfo
	for _, p := range paths {
		info := PortInfo{Path: p, Aliases: aliases[p]}
		if d := byPath[p]; d != nil {
			info.USB, info.VID, info.PID = d.IsUSB, strings.ToUpper(d.VID), strings.ToUpper(d.PID)
			info.Serial, info.Manufacturer, info.Product = d.SerialNumber, d.Manufacturer, d.Product
		}
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b PortInfo) int {
		if a.USB != b.USB {
			if a.USB {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Path, b.Path)
	})
	if derr != nil {
		return out, fmt.Errorf("serialport: USB details: %w", derr)
	}
	return out, nil
}

// stableNames maps each device to the symlinks in dir that point at it.
func stableNames(dir string) map[string][]string {
	out := map[string][]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		link := filepath.Join(dir, e.Name())
		target, err := filepath.EvalSymlinks(link)
		if err != nil {
			continue
		}
		out[target] = append(out[target], link)
	}
	return out
}

// ErrNoPort is returned by Find when no port matches.
var ErrNoPort = errors.New("serialport: no matching port")

// ParseUSBID reads "VID:PID" (hex, e.g. "2E8A:000A") into upper-case VID and
// PID.
func ParseUSBID(s string) (vid, pid string, err error) {
	v, p, ok := strings.Cut(s, ":")
	if !ok || !isHex4(v) || !isHex4(p) {
		return "", "", fmt.Errorf("serialport: USB id %q: want VID:PID, four hex digits each", s)
	}
	return strings.ToUpper(v), strings.ToUpper(p), nil
}

func isHex4(s string) bool {
	if len(s) != 4 {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

// Match picks the port for a board among ports: the one with USB id
// vid:pid, or, when vid is empty, the only USB port. It is an error for
// several ports to match: the path must then be given.
func Match(ports []PortInfo, vid, pid string) (PortInfo, error) {
	var found []PortInfo
	for _, p := range ports {
		if !p.USB {
			continue
		}
		if vid == "" || (strings.EqualFold(p.VID, vid) && strings.EqualFold(p.PID, pid)) {
			found = append(found, p)
		}
	}
	what := "USB serial port"
	if vid != "" {
		what = fmt.Sprintf("port with USB id %s:%s", vid, pid)
	}
	switch len(found) {
	case 0:
		return PortInfo{}, fmt.Errorf("%w: no %s (see boardd ports)", ErrNoPort, what)
	case 1:
		return found[0], nil
	}
	var names []string
	for _, p := range found {
		names = append(names, p.Path)
	}
	return PortInfo{}, fmt.Errorf("serialport: %d ports match (%s): give the path", len(found), strings.Join(names, ", "))
}

// ParseSpec reads what follows "serial:" in --sensor and --led: a device
// path (/dev/ttyACM0), "usb" for the only USB serial port, or "usb:VID:PID"
// for the port with that USB id; any of them may end in "@BAUD"
// (/dev/ttyAMA0@230400). It fills Path, VID, PID and Baud of an Options.
func ParseSpec(s string) (Options, error) {
	var o Options
	spec := s
	if i := strings.LastIndexByte(spec, '@'); i >= 0 {
		baud, err := strconv.Atoi(spec[i+1:])
		if err != nil || baud <= 0 {
			return o, fmt.Errorf("serialport: %q: baud %q: want a positive number", s, spec[i+1:])
		}
		o.Baud, spec = baud, spec[:i]
	}
	switch {
	case spec == "":
		return o, fmt.Errorf("serialport: %q: want a device path, usb, or usb:VID:PID", s)
	case spec == "usb":
	case strings.HasPrefix(spec, "usb:"):
		vid, pid, err := ParseUSBID(strings.TrimPrefix(spec, "usb:"))
		if err != nil {
			return o, err
		}
		o.VID, o.PID = vid, pid
	default:
		o.Path = spec
	}
	return o, nil
}

// Key names the port a spec picks, so that --sensor and --led naming the
// same board share one link.
func (o Options) Key() string { return o.describe() }
