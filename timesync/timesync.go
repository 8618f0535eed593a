// Package timesync tells whether the system's wall clock can be trusted for
// dates. A Raspberry Pi has no real-time clock: it boots believing it is 1970
// (or the time it last shut down) until NTP sets the clock, so a game's date
// is marked unknown until then.
//
// Timers never depend on this: they run on the monotonic clock (package
// timing). Only the dates written in PGN and the journal do.
package timesync

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Marker is the file systemd-timesyncd creates once it has synchronised the
// clock.
const Marker = "/run/systemd/timesync/synchronized"

// UnknownDate is the PGN date of a game whose date is not known.
const UnknownDate = "????.??.??"

// EarliestYear is the earliest year believed: a clock that reads an earlier
// one is wrong whatever the kernel says.
const EarliestYear = 2024

// Checker decides whether the clock is synchronised. The zero Checker asks
// the kernel (adjtimex(2)) and systemd-timesyncd's marker file; tests set the
// fields.
type Checker struct {
	// Marker is a file whose existence means the clock is synchronised
	// (default timesync.Marker; "-" for none).
	Marker string
	// Kernel returns the kernel's clock status bits and clock state, as
	// adjtimex(2) with no modes does (nil: the real system call).
	Kernel func() (status int32, state int, err error)
	// Now is the wall clock (nil: time.Now).
	Now func() time.Time
	// RTC is a file that reads 1 when the kernel set the clock from a
	// battery-backed hardware clock at boot (default RTCFile; "-" for
	// none): a PC, a Pi 5 with its battery, a Pi with an RTC HAT.
	RTC string
	// Trusted says the clock is right whatever the kernel says: its owner
	// knows it is set (boardd run --trust-clock), on a machine no NTP
	// daemon disciplines (a container, a VM, a clock set by hand).
	Trusted bool
}

// RTCFile is where Linux says whether the first hardware clock set the
// system clock at boot.
const RTCFile = "/sys/class/rtc/rtc0/hctosys"

// Synced reports whether the wall clock can be trusted for dates: it reads
// a plausible year, and it is Trusted, or the marker exists, or the
// kernel's NTP status says the clock is in sync, or a hardware clock set it
// at boot.
func (c Checker) Synced() bool { return c.Why() == "" }

// Why says why the wall clock is not trusted for dates, "" when it is.
// A clock that no NTP daemon disciplines (the kernel keeps STA_UNSYNC set)
// and that no hardware clock set is not trusted even if it is right: a
// Raspberry Pi boots with the time it last shut down.
func (c Checker) Why() string {
	if y := c.now().Year(); y < EarliestYear {
		return fmt.Sprintf("the clock reads the year %d", y)
	}
	if c.Trusted {
		return ""
	}
	marker := c.Marker
	if marker == "" {
		marker = Marker
	}
	if marker != "-" {
		if _, err := os.Stat(marker); err == nil {
			return ""
		}
	}
	status, state, err := c.kernel()
	if err == nil && status&unix.STA_UNSYNC == 0 && state != unix.TIME_ERROR {
		return ""
	}
	rtc := c.RTC
	if rtc == "" {
		rtc = RTCFile
	}
	if rtc != "-" {
		if data, err := os.ReadFile(rtc); err == nil && strings.TrimSpace(string(data)) == "1" {
			return ""
		}
	}
	kernel := "the kernel says no NTP daemon has synchronised the clock"
	if err != nil {
		kernel = "the kernel's clock status cannot be read (" + err.Error() + ")"
	}
	return kernel + ", systemd-timesyncd has not marked it synchronised (" + marker + "), and no hardware clock set it at boot"
}

func (c Checker) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c Checker) kernel() (int32, int, error) {
	if c.Kernel != nil {
		return c.Kernel()
	}
	return KernelStatus()
}

// KernelStatus reads the kernel's clock status without changing anything.
func KernelStatus() (status int32, state int, err error) {
	var tx unix.Timex
	state, err = unix.Adjtimex(&tx)
	if err != nil {
		return 0, 0, fmt.Errorf("timesync: adjtimex: %w", err)
	}
	return int32(tx.Status), state, nil
}

// Date returns the PGN date (YYYY.MM.DD, local time) of the instant t, or
// UnknownDate when the clock is not synchronised.
func (c Checker) Date(t time.Time) string {
	if !c.Synced() {
		return UnknownDate
	}
	return t.Format("2006.01.02")
}

// Today returns the PGN date of the present moment, or UnknownDate.
func (c Checker) Today() string { return c.Date(c.now()) }

// ErrUnsynced is returned by WallTime when the clock is not synchronised.
var ErrUnsynced = errors.New("timesync: the wall clock is not synchronised")

// WallTime returns the wall-clock time, or ErrUnsynced.
func (c Checker) WallTime() (time.Time, error) {
	if !c.Synced() {
		return time.Time{}, ErrUnsynced
	}
	return c.now(), nil
}
