package sensor

import (
	"errors"
	"fmt"
	"time"

	"github.com/boardd/boardd/board"
	"periph.io/x/conn/v3/gpio"
)

// MatrixOpts configure a row/column matrix of switches wired straight to the
// host's GPIOs: each switch (reed or Hall switch) joins its row to its column
// through a diode, cathode to the row. Rows are outputs held high; a scan
// drives one row low at a time and reads every column at once, a closed
// switch pulling its column low against the column's pull-up. Input i is row
// i/columns, column i%columns.
//
// On Linux, Rows and Columns are periph's gpioioctl LineSets (the GPIO
// character device: a whole column set in one call); any gpio.Group works.
type MatrixOpts struct {
	// Rows are the row lines, configured as outputs, 1 to 8 of them.
	Rows gpio.Group
	// Columns are the column lines, configured as inputs with pull-ups,
	// 1 to 8 of them.
	Columns gpio.Group
	// Settle is how long to wait after driving a row before reading the
	// columns (wire and diode capacitance); 0 means 10µs.
	Settle time.Duration
	// Delay waits for Settle; nil means time.Sleep. Tests pass a recorder.
	Delay func(time.Duration)
	// Squares[i] is the square of input i; nil means input i is square i.
	Squares []board.Square
}

// Matrix is a Scanner for a GPIO row/column matrix: per scan, one row write
// and one column read for each row, then one write to park the rows.
type Matrix struct {
	rows, cols gpio.Group
	nRows      int
	nCols      int
	rowMask    gpio.GPIOValue
	colMask    gpio.GPIOValue
	settle     time.Duration
	delay      func(time.Duration)
	m          *remap
	name       string
}

// NewMatrix checks the groups and parks every row high.
func NewMatrix(o *MatrixOpts) (*Matrix, error) {
	if o == nil || o.Rows == nil || o.Columns == nil {
		return nil, errors.New("sensor: matrix: rows and columns are both required")
	}
	nr, nc := len(o.Rows.Pins()), len(o.Columns.Pins())
	if nr < 1 || nr > 8 {
		return nil, fmt.Errorf("sensor: matrix: %d rows: expected 1 to 8", nr)
	}
	if nc < 1 || nc > 8 {
		return nil, fmt.Errorf("sensor: matrix: %d columns: expected 1 to 8", nc)
	}
	m, err := newRemap(o.Squares, nr*nc)
	if err != nil {
		return nil, fmt.Errorf("sensor: matrix: %w", err)
	}
	settle := o.Settle
	if settle == 0 {
		settle = 10 * time.Microsecond
	}
	if settle < 0 {
		return nil, fmt.Errorf("sensor: matrix: settle %v: expected a duration of 0 or more", settle)
	}
	delay := o.Delay
	if delay == nil {
		delay = time.Sleep
	}
	x := &Matrix{
		rows: o.Rows, cols: o.Columns, nRows: nr, nCols: nc,
		rowMask: 1<<nr - 1, colMask: 1<<nc - 1,
		settle: settle, delay: delay, m: m,
		name: fmt.Sprintf("gpio matrix %dx%d", nr, nc),
	}
	if err := x.rows.Out(x.rowMask, x.rowMask); err != nil {
		return nil, fmt.Errorf("sensor: matrix: park rows: %w", err)
	}
	return x, nil
}

// Scan drives each row low in turn and reads the columns.
func (x *Matrix) Scan(f *Frame) error {
	var raw uint64
	for r := 0; r < x.nRows; r++ {
		if err := x.rows.Out(x.rowMask&^(1<<r), x.rowMask); err != nil {
			x.park()
			return fmt.Errorf("sensor: matrix: drive row %d: %w", r, err)
		}
		x.delay(x.settle)
		v, err := x.cols.Read(x.colMask)
		if err != nil {
			x.park()
			return fmt.Errorf("sensor: matrix: read columns on row %d: %w", r, err)
		}
		raw |= uint64(^v&x.colMask) << (x.nCols * r)
	}
	if err := x.rows.Out(x.rowMask, x.rowMask); err != nil {
		return fmt.Errorf("sensor: matrix: park rows: %w", err)
	}
	f.Occupancy = x.m.occupancy(raw)
	f.Analog = f.Analog[:0]
	return nil
}

func (x *Matrix) park() { _ = x.rows.Out(x.rowMask, x.rowMask) }

// Halt parks every row high; the line sets stay open (their owner closes
// them).
func (x *Matrix) Halt() error { return x.rows.Out(x.rowMask, x.rowMask) }

// String names the Matrix for logs.
func (x *Matrix) String() string { return x.name }
