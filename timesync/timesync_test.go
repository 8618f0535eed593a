package timesync

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestSynced(t *testing.T) {
	dir := t.TempDir()
	present := filepath.Join(dir, "synchronized")
	if err := os.WriteFile(present, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	absent := filepath.Join(dir, "absent")
	rtcSet, rtcUnset := filepath.Join(dir, "hctosys1"), filepath.Join(dir, "hctosys0")
	for path, text := range map[string]string{rtcSet: "1\n", rtcUnset: "0\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	boot := time.Date(1970, 1, 1, 0, 0, 5, 0, time.UTC)
	kernel := func(status int32, state int, err error) func() (int32, int, error) {
		return func() (int32, int, error) { return status, state, err }
	}
	cases := []struct {
		name   string
		marker string
		kernel func() (int32, int, error)
		now    time.Time
		want   bool
		// rtc is the hardware clock's hctosys file ("": none), trusted
		// the owner's word.
		rtc     string
		trusted bool
	}{
		{"marker file", present, kernel(unix.STA_UNSYNC, unix.TIME_ERROR, nil), now, true, "", false},
		{"kernel in sync", absent, kernel(unix.STA_PLL, 0, nil), now, true, "", false},
		{"kernel unsynchronised", absent, kernel(unix.STA_UNSYNC, 0, nil), now, false, "", false},
		{"kernel clock error", absent, kernel(0, unix.TIME_ERROR, nil), now, false, "", false},
		{"adjtimex fails", absent, kernel(0, 0, errors.New("no")), now, false, "", false},
		{"no marker checked", "-", kernel(unix.STA_UNSYNC, 0, nil), now, false, "", false},
		{"1970 even with the marker", present, kernel(0, 0, nil), boot, false, "", false},
		{"set from a hardware clock at boot", absent, kernel(unix.STA_UNSYNC, unix.TIME_ERROR, nil), now, true, rtcSet, false},
		{"a hardware clock that did not set it", absent, kernel(unix.STA_UNSYNC, unix.TIME_ERROR, nil), now, false, rtcUnset, false},
		{"the owner trusts it", absent, kernel(unix.STA_UNSYNC, unix.TIME_ERROR, nil), now, true, "", true},
		{"1970 even trusted", absent, kernel(unix.STA_UNSYNC, 0, nil), boot, false, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ck := Checker{Marker: c.marker, Kernel: c.kernel, Now: func() time.Time { return c.now }, RTC: c.rtc, Trusted: c.trusted}
			if ck.RTC == "" {
				ck.RTC = "-"
			}
			if got := ck.Synced(); got != c.want {
				t.Errorf("Synced() = %v, want %v", got, c.want)
			}
			if why := ck.Why(); (why == "") != c.want {
				t.Errorf("Why() = %q, want a reason exactly when not synced (%v)", why, !c.want)
			}
			wantDate := UnknownDate
			if c.want {
				wantDate = c.now.Format("2006.01.02")
			}
			if got := ck.Today(); got != wantDate {
				t.Errorf("Today() = %q, want %q", got, wantDate)
			}
			_, err := ck.WallTime()
			if (err == nil) != c.want {
				t.Errorf("WallTime() error = %v, want synced=%v", err, c.want)
			}
		})
	}
}

func TestKernelStatusReads(t *testing.T) {
	// Reading the status needs no privilege; it must not fail on Linux.
	if _, _, err := KernelStatus(); err != nil {
		t.Fatalf("KernelStatus: %v", err)
	}
}
