package link

import (
	"bytes"
	"errors"
)

// COBS (consistent overhead byte stuffing) removes every zero byte from a
// frame's body so that a zero can end each frame on the wire: a receiver that
// joins mid-stream, or loses bytes, is back in step at the next zero.
//
// The body is cut at each zero into blocks; each block is written as one code
// byte (its length plus one) followed by its non-zero bytes, the zero itself
// implied. A block of 254 non-zero bytes has code 0xFF and implies no zero.

// cobsWriter encodes a body into dst as it is written, one byte at a time,
// without a temporary buffer.
type cobsWriter struct {
	dst  []byte
	code int // index in dst of the current block's code byte
	n    byte
}

func newCOBSWriter(dst []byte) cobsWriter {
	w := cobsWriter{dst: dst, code: len(dst), n: 1}
	w.dst = append(w.dst, 0)
	return w
}

func (w *cobsWriter) byte(b byte) {
	if w.n == 0xFF { // the block is full: start another
		w.dst[w.code] = w.n
		w.code, w.n = len(w.dst), 1
		w.dst = append(w.dst, 0)
	}
	if b == 0 {
		w.dst[w.code] = w.n
		w.code, w.n = len(w.dst), 1
		w.dst = append(w.dst, 0)
		return
	}
	w.dst = append(w.dst, b)
	w.n++
}

func (w *cobsWriter) write(p []byte) {
	for len(p) > 0 {
		room := int(0xFF - w.n)
		if room == 0 {
			w.byte(p[0])
			p = p[1:]
			continue
		}
		run := bytes.IndexByte(p, 0)
		if run < 0 {
			run = len(p)
		}
		run = min(run, room)
		if run == 0 {
			w.byte(0)
			p = p[1:]
			continue
		}
		w.dst = append(w.dst, p[:run]...)
		w.n += byte(run)
		p = p[run:]
	}
}

// finish closes the last block and returns the encoding (without the
// delimiter).
func (w *cobsWriter) finish() []byte {
	w.dst[w.code] = w.n
	return w.dst
}

// AppendCOBS appends the COBS encoding of src to dst (without a delimiter).
func AppendCOBS(dst, src []byte) []byte {
	w := newCOBSWriter(dst)
	w.write(src)
	return w.finish()
}

// errCOBS is a frame whose encoding is broken: a block runs past the end of
// the frame, or a code byte is zero.
var errCOBS = errors.New("broken COBS encoding")

// DecodeCOBS appends the decoding of src (one frame's encoding, without its
// delimiter) to dst.
func DecodeCOBS(dst, src []byte) ([]byte, error) {
	for i := 0; i < len(src); {
		code := src[i]
		if code == 0 {
			return dst, errCOBS
		}
		i++
		n := int(code) - 1
		if i+n > len(src) {
			return dst, errCOBS
		}
		if bytes.IndexByte(src[i:i+n], 0) >= 0 {
			return dst, errCOBS
		}
		dst = append(dst, src[i:i+n]...)
		i += n
		if code != 0xFF && i < len(src) {
			dst = append(dst, 0)
		}
	}
	return dst, nil
}
