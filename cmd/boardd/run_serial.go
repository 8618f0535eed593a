package main

import (
	"fmt"

	"github.com/boardd/boardd/led"
)

// serialSensor starts the sensor of a board on the serial port at path
// (--sensor serial:PATH). A stub until the serial backend replaces this file.
func (d *daemon) serialSensor(path string) error {
	return usageError{fmt.Errorf("sensor serial:%s: serial backend not built", path)}
}

// serialLEDs returns the LED sink of a board on the serial port at path
// (--led serial:PATH). A stub until the serial backend replaces this file.
func (d *daemon) serialLEDs(path string) (led.Sink, error) {
	return nil, usageError{fmt.Errorf("leds serial:%s: serial backend not built", path)}
}
