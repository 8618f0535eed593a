package clock

import (
	"strconv"
	"time"
)

// Seconds rounds d to the nearest whole second (halves up), as lichess
// rounds its clock times for PGN; a negative d is 0.
func Seconds(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Second/2) / time.Second)
}

// AppendFormat appends d as h:mm:ss (hours unpadded: "1:29:57", "0:03:00"),
// rounded to the nearest second.
func AppendFormat(dst []byte, d time.Duration) []byte {
	s := Seconds(d)
	dst = strconv.AppendInt(dst, s/3600, 10)
	m, sec := s/60%60, s%60
	return append(dst, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+sec/10), byte('0'+sec%10))
}

// Format returns d as h:mm:ss, the form of the clocks on boardd's output
// lines and in [%clk] comments: "1:29:57", "0:03:00".
func Format(d time.Duration) string {
	var b [24]byte
	return string(AppendFormat(b[:0], d))
}

// Clk returns the PGN clock command for a remaining time, "[%clk 1:29:57]":
// the time left on the mover's clock after his move, written inside the
// move's comment as lichess and ChessBase write it ({[%clk 0:02:58]}).
func Clk(remaining time.Duration) string {
	var b [40]byte
	dst := append(b[:0], "[%clk "...)
	dst = AppendFormat(dst, remaining)
	return string(append(dst, ']'))
}

// Emt returns the PGN elapsed-move-time command, "[%emt 0:00:05]", the time
// the mover spent on his move (Clock.LastMoveTime), as ChessBase writes it.
func Emt(used time.Duration) string {
	var b [40]byte
	dst := append(b[:0], "[%emt "...)
	dst = AppendFormat(dst, used)
	return string(append(dst, ']'))
}

// Tag returns the value of the PGN TimeControl tag for c: "40/5400+30:1800+30"
// for fide-classical, "30/7200:15/3600" for hastings1895; delays are written
// in boardd's extension, "300d5" and "300b5".
func Tag(c Control) string { return c.String() }
