// Package computer is the computer opponent: a chess engine spoken to through
// the UCI protocol, by the rules library's driver
// (github.com/corentings/chess/v2/uci), at a level people understand (an Elo,
// a Skill Level, or a fixed time, depth or node count a move), with an
// optional Polyglot opening book.
//
// A Player answers requests (a game as its initial FEN and its moves in UCI,
// and the clocks) on a goroutine of its own and delivers each reply on a
// channel, so that the board's pipeline never waits for the engine. A reply's
// move is checked against the position: an engine's illegal move is a fault,
// never a reply. An engine that is missing, crashes, hangs or answers garbage
// is reported with a *FaultError naming it and what it did; the player starts
// it again (bounded attempts, with backoff) and gives it the position again,
// once. Every timeout runs on an injected clock.
//
// The package knows nothing of sensors, LEDs or law-sets: the pipeline shows
// the computer's move, the human carries it out on the board, and the arbiter
// rules on the human's hands as on anyone's.
package computer
