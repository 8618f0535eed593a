package link

// CRC-16 parameters (the variant called CRC-16/CCITT-FALSE, also
// CRC-16/IBM-3740): polynomial 0x1021, initial value 0xFFFF, bits not
// reflected on input or output, no final XOR. The check value, the CRC of the
// nine ASCII bytes "123456789", is 0x29B1.
const (
	CRCPoly  = 0x1021
	CRCInit  = 0xFFFF
	CRCCheck = 0x29B1
)

// crcTable is the byte-at-a-time table of the polynomial; it is computed once
// and only read.
var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ CRCPoly
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC16 returns the CRC of p, continuing from crc (start with CRCInit).
func CRC16(crc uint16, p []byte) uint16 {
	for _, b := range p {
		crc = crc<<8 ^ crcTable[byte(crc>>8)^b]
	}
	return crc
}
