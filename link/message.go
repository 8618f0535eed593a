package link

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/boardd/boardd/board"
)

// Message is a message that can be put in a frame.
type Message interface {
	// Type returns the frame type that carries the message.
	Type() Type
	// AppendPayload appends the message's payload bytes to dst.
	AppendPayload(dst []byte) []byte
}

// PayloadError is a frame that arrived intact but whose payload does not fit
// its type.
type PayloadError struct {
	Type  Type
	Len   int
	Fault string
}

func (e *PayloadError) Error() string {
	return fmt.Sprintf("link: %s payload of %d bytes: %s", e.Type, e.Len, e.Fault)
}

func payloadError(t Type, p []byte, format string, args ...any) error {
	return &PayloadError{Type: t, Len: len(p), Fault: fmt.Sprintf(format, args...)}
}

// MaxName is the longest name a HELLO may carry; MaxOption the longest option
// id a CHOOSE may carry.
const (
	MaxName   = 32
	MaxOption = 32
)

// HelloFlags are the bits of a HELLO's flags byte.
type HelloFlags uint8

// The HELLO flags.
const (
	HelloAnalog  HelloFlags = 1 << 0 // board: it sends ANALOG rather than OCCUPANCY scans
	HelloReports HelloFlags = 1 << 1 // board: send it REPORT messages
	HelloButtons HelloFlags = 1 << 2 // board: it has buttons (BUTTON and CHOOSE messages may come)
	HelloReply   HelloFlags = 1 << 7 // this HELLO answers the peer's (answer no HELLO that has it)
)

// Hello opens the link: each end announces its protocol version, what it
// can do and its name.
type Hello struct {
	Version uint8
	Flags   HelloFlags
	Name    string // ASCII, at most MaxName bytes
}

// Type returns TypeHello.
func (Hello) Type() Type { return TypeHello }

// AppendPayload appends version, flags and name.
func (m Hello) AppendPayload(dst []byte) []byte {
	name := m.Name
	if len(name) > MaxName {
		name = name[:MaxName]
	}
	return append(append(dst, m.Version, byte(m.Flags)), name...)
}

// Unmarshal reads a HELLO payload. A payload from a later version may be
// longer; the version byte is always first, so it can be refused by version.
func (m *Hello) Unmarshal(p []byte) error {
	if len(p) < 2 {
		return payloadError(TypeHello, p, "want at least version and flags")
	}
	m.Version, m.Flags = p[0], HelloFlags(p[1])
	name := p[2:]
	if len(name) > MaxName {
		name = name[:MaxName]
	}
	m.Name = printable(name)
	return nil
}

// printable returns p as a string with anything but printable ASCII replaced,
// so that a peer's text is safe to log.
func printable(p []byte) string {
	ok := true
	for _, b := range p {
		if b < 0x20 || b > 0x7e {
			ok = false
			break
		}
	}
	if ok {
		return string(p)
	}
	var s strings.Builder
	for _, b := range p {
		if b < 0x20 || b > 0x7e {
			s.WriteByte('?')
		} else {
			s.WriteByte(b)
		}
	}
	return s.String()
}

// Ack acknowledges the frame of type Of with sequence number Seq.
type Ack struct {
	Seq uint8
	Of  Type
}

// Type returns TypeAck.
func (Ack) Type() Type { return TypeAck }

// AppendPayload appends seq and type.
func (m Ack) AppendPayload(dst []byte) []byte { return append(dst, m.Seq, byte(m.Of)) }

// Unmarshal reads an ACK payload.
func (m *Ack) Unmarshal(p []byte) error {
	if len(p) != 2 {
		return payloadError(TypeAck, p, "want 2 bytes")
	}
	m.Seq, m.Of = p[0], Type(p[1])
	return nil
}

// ErrorCode says why a frame was refused.
type ErrorCode uint8

// The error codes.
const (
	ErrVersion     ErrorCode = 1 // the HELLO's version is not spoken here (Detail: the versions that are)
	ErrNotReady    ErrorCode = 2 // a message before the handshake
	ErrUnknownType ErrorCode = 3 // a frame type this version does not know
	ErrBadLength   ErrorCode = 4 // a payload of the wrong length for its type
	ErrBadValue    ErrorCode = 5 // a field out of range (a side, a button, a role)
	ErrRefused     ErrorCode = 6 // well formed but refused now (a choice not offered)
)

// String names the code as the protocol document writes it.
func (c ErrorCode) String() string {
	switch c {
	case ErrVersion:
		return "version"
	case ErrNotReady:
		return "not-ready"
	case ErrUnknownType:
		return "unknown-type"
	case ErrBadLength:
		return "bad-length"
	case ErrBadValue:
		return "bad-value"
	case ErrRefused:
		return "refused"
	}
	return fmt.Sprintf("error(%d)", uint8(c))
}

// ErrorMsg refuses the frame of type Of with sequence number Seq, for the
// reason Code, explained in Detail (ASCII text, for logs).
type ErrorMsg struct {
	Code   ErrorCode
	Seq    uint8
	Of     Type
	Detail string
}

// Type returns TypeError.
func (ErrorMsg) Type() Type { return TypeError }

// AppendPayload appends code, seq, type and detail.
func (m ErrorMsg) AppendPayload(dst []byte) []byte {
	d := m.Detail
	if len(d) > 200 {
		d = d[:200]
	}
	return append(append(dst, byte(m.Code), m.Seq, byte(m.Of)), d...)
}

// Unmarshal reads an ERROR payload.
func (m *ErrorMsg) Unmarshal(p []byte) error {
	if len(p) < 3 {
		return payloadError(TypeError, p, "want at least code, seq and type")
	}
	m.Code, m.Seq, m.Of = ErrorCode(p[0]), p[1], Type(p[2])
	m.Detail = printable(p[3:])
	return nil
}

func (m ErrorMsg) String() string {
	s := fmt.Sprintf("%s (%s seq %d)", m.Code, m.Of, m.Seq)
	if m.Detail != "" {
		s += ": " + m.Detail
	}
	return s
}

// Occupancy is one scan of a digital board: bit i of Occupancy is square i
// (a1 = 0, b1 = 1, ..., h8 = 63), set when the square holds a man. Time is
// the board's own clock in milliseconds (it wraps; for logs only).
type Occupancy struct {
	Time      uint32
	Occupancy board.Occupancy
}

// OccupancySize is the length of an OCCUPANCY payload.
const OccupancySize = 12

// Type returns TypeOccupancy.
func (Occupancy) Type() Type { return TypeOccupancy }

// AppendPayload appends time and occupancy, little-endian.
func (m Occupancy) AppendPayload(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, m.Time)
	return binary.LittleEndian.AppendUint64(dst, uint64(m.Occupancy))
}

// Unmarshal reads an OCCUPANCY payload.
func (m *Occupancy) Unmarshal(p []byte) error {
	if len(p) != OccupancySize {
		return payloadError(TypeOccupancy, p, "want %d bytes", OccupancySize)
	}
	m.Time = binary.LittleEndian.Uint32(p)
	m.Occupancy = board.Occupancy(binary.LittleEndian.Uint64(p[4:]))
	return nil
}

// Analog is one scan of an analogue board: the occupancy the board decided
// and each square's raw reading (Values[i] for square i).
type Analog struct {
	Time      uint32
	Occupancy board.Occupancy
	Values    [64]uint16
}

// AnalogSize is the length of an ANALOG payload.
const AnalogSize = 12 + 128

// Type returns TypeAnalog.
func (*Analog) Type() Type { return TypeAnalog }

// AppendPayload appends time, occupancy and the 64 readings, little-endian.
func (m *Analog) AppendPayload(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, m.Time)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(m.Occupancy))
	for _, v := range m.Values {
		dst = binary.LittleEndian.AppendUint16(dst, v)
	}
	return dst
}

// Unmarshal reads an ANALOG payload.
func (m *Analog) Unmarshal(p []byte) error {
	if len(p) != AnalogSize {
		return payloadError(TypeAnalog, p, "want %d bytes", AnalogSize)
	}
	m.Time = binary.LittleEndian.Uint32(p)
	m.Occupancy = board.Occupancy(binary.LittleEndian.Uint64(p[4:]))
	for i := range m.Values {
		m.Values[i] = binary.LittleEndian.Uint16(p[12+2*i:])
	}
	return nil
}

// Side is who pressed or chose, as one byte.
type Side uint8

// The sides.
const (
	SideWhite   Side = 1
	SideBlack   Side = 2
	SideArbiter Side = 3 // CHOOSE only
)

// String returns "white", "black" or "arbiter", as the trace format writes
// them.
func (s Side) String() string {
	switch s {
	case SideWhite:
		return "white"
	case SideBlack:
		return "black"
	case SideArbiter:
		return "arbiter"
	}
	return fmt.Sprintf("side(%d)", uint8(s))
}

// ParseSide reads "white", "black" or "arbiter".
func ParseSide(s string) (Side, error) {
	switch s {
	case "white":
		return SideWhite, nil
	case "black":
		return SideBlack, nil
	case "arbiter":
		return SideArbiter, nil
	}
	return 0, fmt.Errorf("link: side %q: want white, black or arbiter", s)
}

// ButtonID is which button was pressed.
type ButtonID uint8

// The buttons. The promotion buttons name the piece a pawn promotes to.
const (
	ButtonJadoube ButtonID = 0x01
	ButtonCheck   ButtonID = 0x02
	ButtonClaim   ButtonID = 0x03
	ButtonClock   ButtonID = 0x04
	PromoteQueen  ButtonID = 0x11
	PromoteRook   ButtonID = 0x12
	PromoteBishop ButtonID = 0x13
	PromoteKnight ButtonID = 0x14
)

// Promotion returns the piece a promotion button names, or false for the
// other buttons.
func (b ButtonID) Promotion() (board.Kind, bool) {
	switch b {
	case PromoteQueen:
		return board.Queen, true
	case PromoteRook:
		return board.Rook, true
	case PromoteBishop:
		return board.Bishop, true
	case PromoteKnight:
		return board.Knight, true
	}
	return 0, false
}

// PromotionButton returns the button that names piece k.
func PromotionButton(k board.Kind) (ButtonID, bool) {
	switch k {
	case board.Queen:
		return PromoteQueen, true
	case board.Rook:
		return PromoteRook, true
	case board.Bishop:
		return PromoteBishop, true
	case board.Knight:
		return PromoteKnight, true
	}
	return 0, false
}

func (b ButtonID) valid() bool {
	switch b {
	case ButtonJadoube, ButtonCheck, ButtonClaim, ButtonClock, PromoteQueen, PromoteRook, PromoteBishop, PromoteKnight:
		return true
	}
	return false
}

// String returns the button's name: the trace format's for the four
// buttons, promote-q, promote-r, promote-b and promote-n for the others.
func (b ButtonID) String() string {
	switch b {
	case ButtonJadoube:
		return "jadoube"
	case ButtonCheck:
		return "check"
	case ButtonClaim:
		return "claim"
	case ButtonClock:
		return "clock"
	case PromoteQueen:
		return "promote-q"
	case PromoteRook:
		return "promote-r"
	case PromoteBishop:
		return "promote-b"
	case PromoteKnight:
		return "promote-n"
	}
	return fmt.Sprintf("button(0x%02x)", uint8(b))
}

// ParseButton reads a button's name (jadoube, check, claim, clock).
func ParseButton(s string) (ButtonID, error) {
	for _, b := range []ButtonID{ButtonJadoube, ButtonCheck, ButtonClaim, ButtonClock, PromoteQueen, PromoteRook, PromoteBishop, PromoteKnight} {
		if b.String() == s {
			return b, nil
		}
	}
	return 0, fmt.Errorf("link: button %q: want jadoube, check, claim, clock or promote-q/r/b/n", s)
}

// Button is a button pressed by Side.
type Button struct {
	Side   Side
	Button ButtonID
}

// Type returns TypeButton.
func (Button) Type() Type { return TypeButton }

// AppendPayload appends side and button.
func (m Button) AppendPayload(dst []byte) []byte { return append(dst, byte(m.Side), byte(m.Button)) }

// Unmarshal reads a BUTTON payload.
func (m *Button) Unmarshal(p []byte) error {
	if len(p) != 2 {
		return payloadError(TypeButton, p, "want 2 bytes")
	}
	m.Side, m.Button = Side(p[0]), ButtonID(p[1])
	if m.Side != SideWhite && m.Side != SideBlack {
		return payloadError(TypeButton, p, "side %d: want 1 (white) or 2 (black)", p[0])
	}
	if !m.Button.valid() {
		return payloadError(TypeButton, p, "button 0x%02x unknown", p[1])
	}
	return nil
}

// Choose picks an option of the irregularity waiting for a choice: by its id
// (Option), or, when the id is empty, by its number Index (1 for the first
// option, whose squares the LEDs show in the option-1 colour, 2 for the
// second, ...). Side is who chooses.
type Choose struct {
	Side   Side
	Index  uint8
	Option string
}

// Type returns TypeChoose.
func (Choose) Type() Type { return TypeChoose }

// AppendPayload appends side, index and the option id.
func (m Choose) AppendPayload(dst []byte) []byte {
	o := m.Option
	if len(o) > MaxOption {
		o = o[:MaxOption]
	}
	return append(append(dst, byte(m.Side), m.Index), o...)
}

// Unmarshal reads a CHOOSE payload.
func (m *Choose) Unmarshal(p []byte) error {
	if len(p) < 2 || len(p) > 2+MaxOption {
		return payloadError(TypeChoose, p, "want 2 to %d bytes", 2+MaxOption)
	}
	m.Side, m.Index = Side(p[0]), p[1]
	if m.Side < SideWhite || m.Side > SideArbiter {
		return payloadError(TypeChoose, p, "side %d: want 1 (white), 2 (black) or 3 (arbiter)", p[0])
	}
	for _, b := range p[2:] {
		if b < 0x21 || b > 0x7e {
			return payloadError(TypeChoose, p, "option id: want printable ASCII without spaces")
		}
	}
	m.Option = string(p[2:])
	if m.Option == "" && m.Index == 0 {
		return payloadError(TypeChoose, p, "neither an option id nor an option number")
	}
	return nil
}

// LEDs is what every LED must show: for square i, byte i of the payload holds
// the role (bits 0-4) and the blink (bits 5-6), numbered as
// docs/serial-protocol.md tables them (the LED language of docs/leds.md).
// The board turns roles into colours and blinks on its own clock.
type LEDs struct {
	Role  [64]uint8 // 0 (off) to MaxRole
	Blink [64]uint8 // 0 (steady), 1 (slow) or 2 (fast)
}

// The highest role and blink numbers an LEDS payload may carry.
const (
	MaxRole  = 20
	MaxBlink = 2
)

// LEDsSize is the length of an LEDS payload.
const LEDsSize = 64

// Type returns TypeLEDs.
func (*LEDs) Type() Type { return TypeLEDs }

// AppendPayload appends one byte a square.
func (m *LEDs) AppendPayload(dst []byte) []byte {
	for sq := range m.Role {
		dst = append(dst, m.Role[sq]&0x1f|m.Blink[sq]&0x3<<5)
	}
	return dst
}

// Unmarshal reads an LEDS payload. Unknown roles and blinks are refused.
func (m *LEDs) Unmarshal(p []byte) error {
	if len(p) != LEDsSize {
		return payloadError(TypeLEDs, p, "want %d bytes", LEDsSize)
	}
	for sq, b := range p {
		r, bl := b&0x1f, b>>5&0x3
		if b&0x80 != 0 || r > MaxRole || bl > MaxBlink {
			return payloadError(TypeLEDs, p, "square %s: byte 0x%02x is not a role and blink", board.Square(sq), b)
		}
		m.Role[sq], m.Blink[sq] = r, bl
	}
	return nil
}

// Status tells the board which law-set boardd applies and the position of
// the game (FEN), after every handshake.
type Status struct {
	Laws string
	FEN  string
}

// Type returns TypeStatus.
func (Status) Type() Type { return TypeStatus }

// AppendPayload appends the two strings, each after its length byte.
func (m Status) AppendPayload(dst []byte) []byte {
	for _, s := range []string{m.Laws, m.FEN} {
		if len(s) > 255 {
			s = s[:255]
		}
		dst = append(append(dst, byte(len(s))), s...)
	}
	return dst
}

// Unmarshal reads a STATUS payload.
func (m *Status) Unmarshal(p []byte) error {
	var fields [2]string
	rest := p
	for i := range fields {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return payloadError(TypeStatus, p, "string %d runs past the end", i+1)
		}
		fields[i] = printable(rest[1 : 1+int(rest[0])])
		rest = rest[1+int(rest[0]):]
	}
	if len(rest) != 0 {
		return payloadError(TypeStatus, p, "%d bytes after the FEN", len(rest))
	}
	m.Laws, m.FEN = fields[0], fields[1]
	return nil
}

// Report carries one of boardd's report lines, the JSON object `boardd
// replay` prints, to a board that asked for reports (a display, the rig).
type Report struct {
	JSON []byte
}

// Type returns TypeReport.
func (Report) Type() Type { return TypeReport }

// AppendPayload appends the JSON text.
func (m Report) AppendPayload(dst []byte) []byte { return append(dst, m.JSON...) }

// Unmarshal reads a REPORT payload; the JSON aliases p.
func (m *Report) Unmarshal(p []byte) error {
	if len(p) < 2 || p[0] != '{' || p[len(p)-1] != '}' {
		return payloadError(TypeReport, p, "want one JSON object")
	}
	m.JSON = p
	return nil
}

// Append appends the wire form of m in a frame numbered seq.
func Append(dst []byte, seq uint8, m Message) ([]byte, error) {
	var buf [256]byte
	var p []byte
	// Concrete calls for the messages sent at the scan rate keep the
	// scratch buffer on the stack.
	switch m := m.(type) {
	case Occupancy:
		p = m.AppendPayload(buf[:0])
	case *LEDs:
		p = m.AppendPayload(buf[:0])
	case *Analog:
		p = m.AppendPayload(buf[:0])
	case Ack:
		p = m.AppendPayload(buf[:0])
	case Button:
		p = m.AppendPayload(buf[:0])
	default:
		p = m.AppendPayload(nil)
	}
	return AppendFrame(dst, m.Type(), seq, p)
}

// Parse reads the message a frame carries (for tools, tests and logs; the
// session reads its own messages without allocating).
func Parse(f Frame) (Message, error) {
	var m interface {
		Message
		Unmarshal([]byte) error
	}
	switch f.Type {
	case TypeHello:
		m = new(Hello)
	case TypeAck:
		m = new(Ack)
	case TypeError:
		m = new(ErrorMsg)
	case TypeOccupancy:
		m = new(Occupancy)
	case TypeAnalog:
		m = new(Analog)
	case TypeButton:
		m = new(Button)
	case TypeChoose:
		m = new(Choose)
	case TypeLEDs:
		m = new(LEDs)
	case TypeStatus:
		m = new(Status)
	case TypeReport:
		r := new(Report)
		if err := r.Unmarshal(f.Payload); err != nil {
			return nil, err
		}
		r.JSON = append([]byte(nil), r.JSON...)
		return r, nil
	default:
		return nil, &PayloadError{Type: f.Type, Len: len(f.Payload), Fault: "unknown type"}
	}
	if err := m.Unmarshal(f.Payload); err != nil {
		return nil, err
	}
	return m, nil
}
