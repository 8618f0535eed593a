package chesslink

import (
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/timing"
)

// The registers (the board's EEPROM) apps use, and their meaning.
const (
	// RegSerial: bit 0 set disables the block check; commands then come
	// without check digits (for typing at a terminal).
	RegSerial = 0x00
	// RegScanTime is the time of one scan of the board, in units of
	// ScanUnit (2.048 ms): 20 (40.96 ms) by default, from 15 to 255; below
	// 15 reads as 20.
	RegScanTime = 0x01
	// RegAutoReport: bits 2-0 are the ReportMode.
	RegAutoReport = 0x02
	// RegReportTime is the time between reports in ReportTimed mode, in
	// units of SlotUnit (4.096 ms).
	RegReportTime = 0x03
	// RegBrightness is the LED brightness: 0 dim, 15 and above full.
	RegBrightness = 0x04
)

// ScanUnit is the unit of the scan time register.
const ScanUnit = 2048 * time.Microsecond

// ReportMode says when the board sends its status unasked (bits 2-0 of
// register 02).
type ReportMode uint8

// The report modes.
const (
	ReportEveryScan ReportMode = iota // after every scan (the board's default)
	ReportOff                         // never: the app asks with S
	ReportTimed                       // every RegReportTime
	ReportOnChange                    // when the placement changes
	// ReportOnChange2 to ReportOnChange5: when a changed placement has stood
	// for 2 to 5 scans (a debounce).
	ReportOnChange2
	ReportOnChange3
	ReportOnChange4
	ReportOnChange5
)

// String names the mode, e.g. "on-change-3".
func (m ReportMode) String() string {
	switch m &= 7; m {
	case ReportEveryScan:
		return "every-scan"
	case ReportOff:
		return "off"
	case ReportTimed:
		return "timed"
	case ReportOnChange:
		return "on-change"
	}
	return "on-change-" + strconv.Itoa(int(m)-2)
}

// scans returns how many scans a change must stand before an on-change
// mode reports it (1 for plain on-change), 0 for the other modes.
func (m ReportMode) scans() int {
	if m&7 < ReportOnChange {
		return 0
	}
	if m&7 == ReportOnChange {
		return 1
	}
	return int(m&7) - 2
}

// Defaults of Options and the board's registers.
const (
	// DefaultVersion is what V answers: 01.03, the firmware of a Millennium
	// ChessLink module on a Chess Genius Exclusive board.
	DefaultVersion = 0x0103
	// DefaultResetDelay is how long the board is deaf after T.
	DefaultResetDelay = 3 * time.Second
	// DefaultScanTime is register 01's default (40.96 ms).
	DefaultScanTime = 20
	// DefaultReportTime is register 03's default (81.92 ms); the protocol
	// description gives none.
	DefaultReportTime = 20
	// DefaultBrightness is register 04's default (full).
	DefaultBrightness = 15
)

// Output limits. Beyond reportBacklog bytes not yet taken by the port, an
// unsolicited status is held back (the app is not reading; a change is sent
// once it does). The port's own buffer cannot be read from the board's end
// on every device (a pseudo-terminal's slave reports nothing waiting with
// TIOCOUTQ, and takes tens of KiB without blocking), so a status that
// repeats the placement last sent (every scan, timed) is held back too once
// reportBacklog bytes of statuses have gone unasked since the app last sent
// anything (unheard): an app that neither reads nor speaks has about 1 KiB
// of them waiting, however long the board stands. A change is never held
// back for the app's silence (an app may only listen), and, as on the
// board, is reported once a scan at most. Beyond replyBacklog bytes not
// taken, replies are dropped too (counted).
const (
	reportBacklog = 1024
	replyBacklog  = 64 << 10
)

// Options configure a Session, and an Emulator (which also reads the
// serving fields).
type Options struct {
	// Orientation is the corner the status and the LEDs count from (FromH1
	// by default).
	Orientation Orientation
	// Parity is what bit 7 of the bytes sent carries (ParityOdd by default).
	Parity Parity
	// RequireParity drops commands sent as plain 7-bit ASCII; see
	// Decoder.RequireParity.
	RequireParity bool
	// Version is what V answers (DefaultVersion if zero), high byte first.
	Version uint16
	// ResetDelay is how long T leaves the board deaf and silent
	// (DefaultResetDelay if zero).
	ResetDelay time.Duration
	// ShowLEDs is told every LED pattern the app sets: after L, a dark one
	// after X and T, and the pattern again when the brightness register
	// changes. It runs on the goroutine feeding the session (an Emulator's
	// serving goroutine, with no lock held) and should return promptly.
	ShowLEDs func(LEDPattern)
	// Logger receives dropped messages (at debug level) and, for an
	// Emulator, ports opened and lost (discarded if nil).
	Logger *slog.Logger

	// Clock is an Emulator's time (a timing.Real if nil).
	Clock timing.Clock
	// Baud is the line speed an Emulator opens a serial port at
	// (DefaultBaud if zero); USB gadget ports ignore it.
	Baud int
	// MinBackoff and MaxBackoff bound an Emulator's wait between attempts to
	// open its port; the wait doubles while attempts fail
	// (DefaultMinBackoff, DefaultMaxBackoff if zero).
	MinBackoff, MaxBackoff time.Duration
	// Open opens an Emulator's port (OpenPort if nil); tests may substitute
	// it.
	Open func(path string, baud int) (Port, error)
	// Connected, if set, is told on an Emulator's serving goroutine when its
	// port opens (true) and when the port is lost (false): a USB gadget
	// port unplugged, a pseudo-terminal closed. The board's registers,
	// placement and LED pattern are kept either way.
	Connected func(open bool)
}

// Stats count what a session has seen and done.
type Stats struct {
	Decoder     DecoderStats
	Commands    uint64 // commands carried out
	Reports     uint64 // statuses sent unasked
	ReportsHeld uint64 // unsolicited statuses held back while the app was not reading
	RepliesLost uint64 // replies dropped for a backlog the app did not read
	Resets      uint64 // T commands
	Deaf        uint64 // bytes ignored while resetting
	Opens       uint64 // an Emulator's port opened
	Losses      uint64 // an Emulator's port failed or vanished
}

// Session is the board's end of the protocol for one app: it answers
// commands, keeps the registers, reports the placement unasked as register
// 02 says, and tells the board the app's LED patterns. Malformed messages
// are ignored as the board ignores them, silently (and logged at debug
// level). It does no I/O and reads no clock: its driver hands it the bytes
// that arrive and the time, writes out what TakeOutput returns, and calls
// Advance at Deadline. It is not safe for concurrent use.
type Session struct {
	opts Options
	log  *slog.Logger
	dec  Decoder
	regs [256]byte
	men  [64]board.Man
	leds LEDPattern

	out   []byte
	body  []byte
	now   time.Duration
	emitF func([]byte, error)

	started    bool
	sent       [64]board.Man // the placement last sent in a status
	sentValid  bool
	changedAt  time.Duration // when the placement last changed
	nextScan   time.Duration // ReportEveryScan
	nextTimed  time.Duration // ReportTimed
	retryAt    time.Duration // a change report held back for a backlog
	unheard    int           // bytes of statuses sent unasked since the app last sent anything
	reported   bool          // a status has been sent unasked: reportedAt holds when
	reportedAt time.Duration
	resetting  bool
	resetUntil time.Duration
	stats      Stats
}

// NewSession returns the board as it powers up: registers at their defaults,
// an empty board, LEDs dark.
func NewSession(o Options) *Session {
	if o.Version == 0 {
		o.Version = DefaultVersion
	}
	if o.ResetDelay <= 0 {
		o.ResetDelay = DefaultResetDelay
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Session{opts: o, log: o.Logger}
	s.dec.RequireParity = o.RequireParity
	s.regs[RegScanTime] = DefaultScanTime
	s.regs[RegReportTime] = DefaultReportTime
	s.regs[RegBrightness] = DefaultBrightness
	s.leds = LEDPattern{Orientation: o.Orientation, Brightness: DefaultBrightness}
	s.emitF = s.emit
	return s
}

// Register returns the value of a register.
func (s *Session) Register(addr byte) byte { return s.regs[addr] }

// ReportMode returns the mode register 02 sets.
func (s *Session) ReportMode() ReportMode { return ReportMode(s.regs[RegAutoReport] & 7) }

// ScanTime returns the time of one scan, as register 01 sets it.
func (s *Session) ScanTime() time.Duration {
	r := s.regs[RegScanTime]
	if r < 15 {
		r = DefaultScanTime
	}
	return time.Duration(r) * ScanUnit
}

// reportTime is the period of ReportTimed: register 03, but no shorter than
// a scan (the board has nothing new to tell in between).
func (s *Session) reportTime() time.Duration {
	return max(time.Duration(s.regs[RegReportTime])*SlotUnit, s.ScanTime())
}

// Placement returns the placement the board shows.
func (s *Session) Placement() [64]board.Man { return s.men }

// LEDs returns the LED pattern the app set last.
func (s *Session) LEDs() LEDPattern { return s.leds }

// Stats returns the counters.
func (s *Session) Stats() Stats {
	st := s.stats
	st.Decoder = s.dec.Stats
	return st
}

// Resetting reports whether the board is deaf after T.
func (s *Session) Resetting() bool { return s.resetting }

func (s *Session) start(now time.Duration) {
	s.now = now
	if s.started {
		return
	}
	s.started = true
	s.changedAt = now
	s.nextScan = now + s.ScanTime()
	s.nextTimed = now + s.reportTime()
}

// SetPlacement makes men the placement the board shows (square 0 is a1),
// reporting it as register 02 says. A square holding something that is no
// man is refused with an error and the placement kept.
func (s *Session) SetPlacement(now time.Duration, men [64]board.Man) error {
	if err := ValidPlacement(&men); err != nil {
		return err
	}
	s.start(now)
	if men != s.men {
		s.men = men
		s.changedAt = now
		s.retryAt = 0
	}
	s.Advance(now)
	return nil
}

// Reconnect forgets a message half received and the output not yet taken:
// the port was reopened, and what came and what waited belong to a
// connection that is gone (a board's line sends into the void while nobody
// listens).
func (s *Session) Reconnect() {
	s.dec.Reset()
	s.out = s.out[:0]
	s.unheard = 0
}

// Receive reads bytes from the app, answering each good command.
func (s *Session) Receive(now time.Duration, p []byte) {
	s.start(now)
	if len(p) > 0 {
		s.unheard = 0 // the app is there
	}
	s.Advance(now)
	if s.resetting {
		s.stats.Deaf += uint64(len(p))
		return
	}
	stray := s.dec.Stats.Stray
	s.dec.Feed(p, s.emitF)
	if n := s.dec.Stats.Stray - stray; n > 0 {
		s.log.Debug("chesslink: skipped bytes outside any message", "bytes", n)
	}
}

func (s *Session) emit(body []byte, err error) {
	if s.resetting {
		s.stats.Deaf += uint64(len(body))
		return
	}
	if err != nil {
		s.log.Debug("chesslink: ignored a malformed message", "err", err)
		return
	}
	c, err := ParseCommand(body)
	if err != nil {
		s.log.Debug("chesslink: ignored a malformed message", "err", err)
		return
	}
	s.stats.Commands++
	s.carryOut(c)
}

// carryOut does what a command asks and answers it.
func (s *Session) carryOut(c Command) {
	b := s.body[:0]
	switch c.Letter {
	case CmdVersion:
		b = appendHex(appendHex(append(b, 'v'), byte(s.opts.Version>>8)), byte(s.opts.Version))
	case CmdStatus:
		b = AppendStatus(b, &s.men, s.opts.Orientation)
		s.sent, s.sentValid = s.men, true
	case CmdLEDs:
		c.LEDs.Orientation, c.LEDs.Brightness = s.opts.Orientation, s.regs[RegBrightness]
		s.show(c.LEDs)
		b = append(b, 'l')
	case CmdLEDsOff:
		s.show(LEDPattern{Orientation: s.opts.Orientation, Brightness: s.regs[RegBrightness]})
		b = append(b, 'x')
	case CmdReset:
		s.reset()
		return
	case CmdWrite:
		s.write(c.Address, c.Value)
		b = appendHex(appendHex(append(b, 'w'), c.Address), c.Value)
	case CmdRead:
		b = appendHex(appendHex(append(b, 'r'), c.Address), s.regs[c.Address])
	case CmdIdentify:
		b = append(appendHex(append(b, 'i'), c.Value), identity...)
	default:
		return
	}
	s.body = b
	if len(s.out) >= replyBacklog {
		s.stats.RepliesLost++
		return
	}
	s.out = AppendMessage(s.out, b, s.opts.Parity)
}

func (s *Session) show(p LEDPattern) {
	s.leds = p
	if s.opts.ShowLEDs != nil {
		s.opts.ShowLEDs(p)
	}
}

// write sets a register and what hangs on it.
func (s *Session) write(addr, v byte) {
	old := s.regs[addr]
	s.regs[addr] = v
	switch addr {
	case RegSerial:
		s.dec.NoCheckDigits = v&1 != 0
	case RegScanTime:
		s.nextScan = s.now + s.ScanTime()
	case RegAutoReport, RegReportTime:
		s.nextScan = s.now + s.ScanTime()
		s.nextTimed = s.now + s.reportTime()
	case RegBrightness:
		if v != old {
			p := s.leds
			p.Brightness = v
			s.show(p)
		}
	}
}

// reset is T: the board restarts. It goes deaf and silent for the reset
// delay, forgets what it was sending and showing, and keeps its registers
// (they are EEPROM).
func (s *Session) reset() {
	s.stats.Resets++
	s.resetting, s.resetUntil = true, s.now+s.opts.ResetDelay
	s.out = s.out[:0]
	s.show(LEDPattern{Orientation: s.opts.Orientation, Brightness: s.regs[RegBrightness]})
}

// Deadline returns when Advance must next be called (timing.Never if no
// timer is pending).
func (s *Session) Deadline() time.Duration {
	if !s.started {
		return timing.Never
	}
	if s.resetting {
		return s.resetUntil
	}
	switch m := s.ReportMode(); m {
	case ReportEveryScan:
		return s.nextScan
	case ReportTimed:
		return s.nextTimed
	case ReportOff:
		return timing.Never
	default:
		if s.sentValid && s.sent == s.men {
			return timing.Never
		}
		due := max(s.changedAt+time.Duration(m.scans()-1)*s.ScanTime(), s.retryAt)
		if s.reported {
			due = max(due, s.reportedAt+s.ScanTime()) // one report a scan
		}
		return due
	}
}

// Advance runs the timers due at now: the end of a reset, and the
// unsolicited statuses.
func (s *Session) Advance(now time.Duration) {
	s.start(now)
	if s.resetting {
		if now < s.resetUntil {
			return
		}
		s.resetting = false
		s.dec.Reset()
		s.sentValid = false
		s.changedAt = now
		s.nextScan, s.nextTimed = now+s.ScanTime(), now+s.reportTime()
	}
	switch m := s.ReportMode(); m {
	case ReportEveryScan:
		s.nextScan = s.tick(now, s.nextScan, s.ScanTime())
	case ReportTimed:
		s.nextTimed = s.tick(now, s.nextTimed, s.reportTime())
	case ReportOff:
	default:
		if due := s.Deadline(); due != timing.Never && now >= due && !s.report() {
			s.retryAt = now + s.ScanTime()
		}
	}
}

// tick sends a status if a periodic report is due and returns the next.
func (s *Session) tick(now, due, period time.Duration) time.Duration {
	if now < due {
		return due
	}
	s.report()
	due += period
	if due <= now {
		due = now + period // fell behind (the driver was late): no burst
	}
	return due
}

// report sends the status unasked, unless the port has not taken what
// came before, or the status repeats the placement last sent and the app
// has not spoken for reportBacklog bytes of statuses (see reportBacklog).
func (s *Session) report() bool {
	repeat := s.sentValid && s.sent == s.men
	if len(s.out) >= reportBacklog || repeat && s.unheard >= reportBacklog {
		s.stats.ReportsHeld++
		return false
	}
	s.body = AppendStatus(s.body[:0], &s.men, s.opts.Orientation)
	n := len(s.out)
	s.out = AppendMessage(s.out, s.body, s.opts.Parity)
	s.unheard += len(s.out) - n
	s.reported, s.reportedAt = true, s.now
	s.sent, s.sentValid = s.men, true
	s.retryAt = 0
	s.stats.Reports++
	return true
}

// TakeOutput appends what the session has to send to dst and forgets it.
func (s *Session) TakeOutput(dst []byte) []byte {
	dst = append(dst, s.out...)
	s.out = s.out[:0]
	return dst
}

// Pending returns how many bytes wait to be taken.
func (s *Session) Pending() int { return len(s.out) }

// String summarises the session for logs (Stats.String).
func (s *Session) String() string { return s.Stats().String() }

// String summarises the counters for logs: every one, the replies lost to
// a backlog the app did not read included.
func (st Stats) String() string {
	return fmt.Sprintf("commands %d, dropped %d (bad checksum %d, bad parity %d, broken %d), stray bytes %d, reports %d (held %d), replies lost %d, resets %d, deaf bytes %d, opens %d, losses %d",
		st.Commands, st.Decoder.Dropped(), st.Decoder.BadChecksum, st.Decoder.BadParity, st.Decoder.Broken, st.Decoder.Stray, st.Reports, st.ReportsHeld, st.RepliesLost, st.Resets, st.Deaf, st.Opens, st.Losses)
}
