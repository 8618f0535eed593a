package serialport

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in             string
		path, vid, pid string
		baud           int
		err            string
	}{
		{in: "/dev/ttyACM0", path: "/dev/ttyACM0"},
		{in: "/dev/ttyAMA0@230400", path: "/dev/ttyAMA0", baud: 230400},
		{in: "usb"},
		{in: "usb:2e8a:000a", vid: "2E8A", pid: "000A"},
		{in: "usb:2e8a:000a@9600", vid: "2E8A", pid: "000A", baud: 9600},
		{in: "", err: "want a device path"},
		{in: "usb:2e8a", err: "want VID:PID"},
		{in: "usb:xyz1:0001", err: "want VID:PID"},
		{in: "/dev/ttyACM0@fast", err: "baud"},
		{in: "/dev/ttyACM0@-5", err: "baud"},
	}
	for _, tt := range tests {
		o, err := ParseSpec(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSpec(%q) err %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || o.Path != tt.path || o.VID != tt.vid || o.PID != tt.pid || o.Baud != tt.baud {
			t.Errorf("ParseSpec(%q) = %+v, %v", tt.in, o, err)
		}
	}
	a, _ := ParseSpec("/dev/ttyACM0@9600")
	b, _ := ParseSpec("/dev/ttyACM0")
	if a.Key() != b.Key() {
		t.Error("the same port at two speeds has two keys")
	}
}

func TestMatch(t *testing.T) {
	ports := []PortInfo{
		{Path: "/dev/ttyS0"},
		{Path: "/dev/ttyACM0", USB: true, VID: "2E8A", PID: "000A"},
		{Path: "/dev/ttyUSB0", USB: true, VID: "0403", PID: "6001"},
	}
	if p, err := Match(ports, "0403", "6001"); err != nil || p.Path != "/dev/ttyUSB0" {
		t.Errorf("by id: %v %v", p.Path, err)
	}
	if _, err := Match(ports, "", ""); err == nil || !strings.Contains(err.Error(), "2 ports match") {
		t.Errorf("two USB ports, no id: %v", err)
	}
	if p, err := Match(ports[:2], "", ""); err != nil || p.Path != "/dev/ttyACM0" {
		t.Errorf("the only USB port: %v %v", p.Path, err)
	}
	if _, err := Match(ports, "1111", "2222"); !errors.Is(err, ErrNoPort) {
		t.Errorf("no such id: %v", err)
	}
	if got := ports[1].USBID(); got != "2E8A:000A" {
		t.Errorf("USBID %q", got)
	}
}
