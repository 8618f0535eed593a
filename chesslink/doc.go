// Package chesslink emulates a Millennium ChessLink board, so that the chess
// apps and GUIs that drive one (over USB serial or Bluetooth) can play on a
// boardd board.
//
// The protocol is ASCII with odd parity: each message is a letter (upper
// case from the app, the same letter in lower case in the board's reply),
// its data, and two hex digits of the XOR of everything before them. The app
// asks for the version (V), the placement of all 64 squares (S), lights the
// 81 LEDs at the corners of the squares (L) or puts them out (X), resets the
// board (T), and reads and writes the board's registers (R, W), among them
// when the board sends its placement unasked. A Hall-sensor board sees only
// which squares are occupied, but boardd knows the game, so the emulation
// answers with every man's letter.
//
// Package layers, bottom up: AppendMessage and Decoder are the wire format;
// Command, AppendStatus and LEDPattern the messages; Session the board's
// behaviour as a state machine driven by the bytes that arrive and the time;
// Emulator serves a Session on a port, reopening it as it comes and goes.
// docs/chesslink.md describes the protocol as boardd speaks it.
package chesslink
