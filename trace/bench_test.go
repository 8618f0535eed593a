package trace

import (
	"testing"
)

// BenchmarkParse measures reading one frame line, digital and analogue (64
// levels of a 12-bit ADC): what boardd replay spends a scan on before the
// game sees it.
func BenchmarkParse(b *testing.B) {
	analog := Line{Kind: Frame, T: 1234, Bits: 12}
	for i := range analog.Analog {
		analog.Analog[i] = uint16(1500 + 37*i)
	}
	for _, bc := range []struct {
		name string
		line Line
	}{
		{"digital", Line{Kind: Frame, T: 1234, Occupancy: 0xffff00000000ffff}},
		{"analog", analog},
	} {
		text := Append(nil, bc.line)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				l, err := Parse(text)
				if err != nil || l.Kind != Frame {
					b.Fatalf("%v %v", l, err)
				}
			}
		})
	}
}
