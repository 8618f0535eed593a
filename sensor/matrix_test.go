package sensor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/gpio"
)

// matrixBoard wires a rows group to a columns group through switches closed
// wherever closed has a bit (input 8*row+column): a column reads low when a
// closed switch joins it to a row driven low.
func matrixBoard(j *journal, nr, nc int, closed *uint64) (rows, cols *group) {
	rows = newGroup("rows", nr, j)
	cols = newGroup("cols", nc, j)
	cols.read = func(mask gpio.GPIOValue) gpio.GPIOValue {
		v := gpio.GPIOValue(1<<nc - 1)
		for r, p := range rows.pins {
			if p.Read() == gpio.Low {
				for c := 0; c < nc; c++ {
					if *closed&(1<<(nc*r+c)) != 0 {
						v &^= 1 << c
					}
				}
			}
		}
		return v
	}
	return rows, cols
}

func TestMatrixScan(t *testing.T) {
	j := &journal{}
	closed := uint64(occ(t, "a1", "e4", "h8"))
	rows, cols := matrixBoard(j, 8, 8, &closed)
	x, err := NewMatrix(&MatrixOpts{Rows: rows, Columns: cols, Delay: func(d time.Duration) { j.add("wait(%v)", d) }})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.String(); got != "rows.out(ff/ff)" {
		t.Errorf("New: %q, want the rows parked high", got)
	}
	j.reset()
	var f Frame
	if err := x.Scan(&f); err != nil {
		t.Fatal(err)
	}
	if want := occ(t, "a1", "e4", "h8"); f.Occupancy != want {
		t.Errorf("occupancy %v, want %v", f.Occupancy.SquareNames(), want.SquareNames())
	}
	var want []string
	reads := map[int]string{0: "fe", 3: "ef", 7: "7f"}
	for r := 0; r < 8; r++ {
		read := reads[r]
		if read == "" {
			read = "ff"
		}
		want = append(want, fmt.Sprintf("rows.out(%02x/ff) wait(10µs) cols.read=%s", 0xFF&^(1<<r), read))
	}
	want = append(want, "rows.out(ff/ff)")
	if got := j.String(); got != strings.Join(want, " ") {
		t.Errorf("transactions\n got %s\nwant %s", got, strings.Join(want, " "))
	}
}

func TestMatrixSmallAndReordered(t *testing.T) {
	// A 2x4 test rig whose eight switches stand for e1..h1 and e2..h2,
	// numbered from h2 backwards, with a 50µs settle.
	j := &journal{}
	closed := uint64(1<<0 | 1<<7) // row 0 column 0, row 1 column 3
	rows, cols := matrixBoard(j, 2, 4, &closed)
	squares := []board.Square{15, 14, 13, 12, 7, 6, 5, 4}
	x, err := NewMatrix(&MatrixOpts{Rows: rows, Columns: cols, Settle: 50 * time.Microsecond, Squares: squares,
		Delay: func(d time.Duration) { j.add("wait(%v)", d) }})
	if err != nil {
		t.Fatal(err)
	}
	j.reset()
	var f Frame
	if err := x.Scan(&f); err != nil {
		t.Fatal(err)
	}
	if want := occ(t, "h2", "e1"); f.Occupancy != want {
		t.Errorf("occupancy %v, want %v", f.Occupancy.SquareNames(), want.SquareNames())
	}
	want := "rows.out(02/03) wait(50µs) cols.read=0e rows.out(01/03) wait(50µs) cols.read=07 rows.out(03/03)"
	if got := j.String(); got != want {
		t.Errorf("transactions\n got %s\nwant %s", got, want)
	}
}

func TestMatrixFaults(t *testing.T) {
	cases := []struct {
		name       string
		rows, cols map[int]bool
		want       string
		tail       string // the journal's last entry: rows parked again
	}{
		{"row write fails on row 2", map[int]bool{3: true}, nil, "drive row 2: remote I/O error", "rows.out(ff/ff)"},
		{"column read fails on row 0", nil, map[int]bool{0: true}, "read columns on row 0: remote I/O error", "rows.out(ff/ff)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := &journal{}
			var closed uint64
			rows, cols := matrixBoard(j, 8, 8, &closed)
			rows.fail, cols.fail = c.rows, c.cols
			x, err := NewMatrix(&MatrixOpts{Rows: rows, Columns: cols, Delay: func(time.Duration) {}})
			if err != nil {
				t.Fatal(err)
			}
			f := Frame{Occupancy: 99}
			err = x.Scan(&f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if f.Occupancy != 99 {
				t.Error("a failed scan changed the frame")
			}
			if got := j.entries[len(j.entries)-1]; got != c.tail {
				t.Errorf("after the fault the bus ends with %q, want %q", got, c.tail)
			}
		})
	}
}

func TestNewMatrixRefuses(t *testing.T) {
	cases := []struct {
		name       string
		rows, cols int
		settle     time.Duration
		want       string
	}{
		{"nine rows", 9, 8, 0, "9 rows: expected 1 to 8"},
		{"no columns", 8, 0, 0, "0 columns: expected 1 to 8"},
		{"negative settle", 8, 8, -time.Microsecond, "settle -1µs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var closed uint64
			rows, cols := matrixBoard(nil, c.rows, c.cols, &closed)
			_, err := NewMatrix(&MatrixOpts{Rows: rows, Columns: cols, Settle: c.settle})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := NewMatrix(&MatrixOpts{}); err == nil {
		t.Error("a matrix without lines was accepted")
	}
}

func BenchmarkMatrixScan(b *testing.B) {
	closed := uint64(0xFFFF00000000FFFF)
	rows, cols := matrixBoard(nil, 8, 8, &closed)
	x, err := NewMatrix(&MatrixOpts{Rows: rows, Columns: cols, Delay: func(time.Duration) {}})
	if err != nil {
		b.Fatal(err)
	}
	var f Frame
	b.ReportAllocs()
	for b.Loop() {
		if err := x.Scan(&f); err != nil {
			b.Fatal(err)
		}
	}
}
