// Package hwtest is boardd's hardware-in-the-loop test tools: the rig, which
// takes a board's microcontroller's place on the serial link and plays
// scenarios into a running boardd in real time, checking the reports and
// LEDs that come back and timing them; the scenario format (a trace plus
// expectations); and the trace tools that make traces to play (the
// synthesiser).
//
// docs/rig.md describes scenarios and the rig, a program of its own
// (hwtest/cmd/rig); docs/serial-protocol.md the link the rig speaks.
package hwtest
