// Command synth makes test material for boardd without the daemon: human-like
// traces of games (as debounced events, as bouncing raw frames, or as the
// levels of an analogue board's sensors with its calibration), seeded
// random legal games rich in castling, en passant and promotion, and PGN
// files normalised for the hwtest corpus. docs/synthesiser.md describes it.
//
//	synth trace [flags] [FILE.pgn]   a trace of one game (or of -moves)
//	synth games [flags]              random legal games as PGN
//	synth pgn [flags] FILE.pgn...    games rewritten as plain PGN
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/calibration"
	"github.com/boardd/boardd/hwtest"
	"github.com/boardd/boardd/hwtest/hallsim"
	"github.com/boardd/boardd/trace"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  synth trace [flags] [FILE.pgn|-]   write a trace of one game (flags: synth trace -h)
  synth games [flags]                write seeded random legal games as PGN
  synth pgn [flags] FILE.pgn...      rewrite games as plain PGN (main line, no comments)
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	var err error
	switch args[0] {
	case "trace":
		err = traceCmd(args[1:], stdin, out, stderr)
	case "games":
		err = gamesCmd(args[1:], out, stderr)
	case "pgn":
		err = pgnCmd(args[1:], out, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "synth: unknown command %q\n%s", args[0], usage)
		return 2
	}
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		out.Flush()
		fmt.Fprintf(stderr, "synth: %v\n", err)
		return 2
	}
	return 0
}

func traceCmd(args []string, stdin io.Reader, out io.Writer, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "seed of the hands (the same seed gives the same trace)")
	game := fs.Int("game", 1, "which game of the PGN file, from 1")
	moves := fs.String("moves", "", "UCI moves to play instead of a PGN game, such as \"e2e4 e7e5 g1f3\"")
	fen := fs.String("fen", "", "with -moves: the position to start from (default the initial position)")
	laws := fs.String("laws", "fide2023", "law-set the play must be clean under (decides the castling orders)")
	frames := fs.Bool("frames", false, "write raw frames with contact bounce instead of debounced events")
	analog := fs.Bool("analog", false, "write an analogue board's scans (64 sensor levels a frame, 100 frames a second) instead of debounced events")
	bits := fs.Int("bits", 12, "with -analog: the ADC's resolution, 12 (MCP3208) or 10 (MCP3008)")
	boardSeed := fs.Uint64("board-seed", 1, "with -analog: the seed of the simulated board's parts (the calibration must be made on the same)")
	offCentre := fs.Float64("off-centre", 2.5, "with -analog: how far from a square's centre men are set, at most, in mm")
	started := fs.Duration("started", 0, "with -analog: how long the board has been on (and warming) when the game begins; the trace then begins with a frame a second from the moment it was switched on")
	slowHands := fs.Float64("slow", 1, "with -analog: how many times longer than an ordinary hand's (50-120 ms) the hands take to lower a man onto a square and to raise him, where the events leave the time")
	hover := fs.Float64("hover", 0, "with -analog: the chance that a hand holds a man still above a square for 100-600 ms before setting him down there or, half the time, moving on from a square beside it")
	hoverHeight := fs.Float64("hover-height", 4.5, "with -analog: the lowest a hovering hand holds a man above the board, in mm (each hover is held between it and twice it)")
	ownDrift := fs.Bool("own-drift", true, "with -analog: each sensor drifts its own way as the board warms (false: all upwards together)")
	calOut := fs.String("calibration", "", "with -analog: calibrate the simulated board as 'boardd calibrate' would, save the calibration in FILE, and name it (its base name) on the trace's first line")
	def := hwtest.DefaultStyle()
	fast := fs.Float64("fast", def.FastReply, "probability of a fast reply (first lift 50-200 ms after the last placement)")
	recapture := fs.Float64("fast-recapture", def.FastRecapture, "probability that a recapture is fast, the taken man lifted first")
	slide := fs.Float64("slide", def.Slide, "probability that a sliding man is set down on its way")
	adjust := fs.Float64("adjust", def.Adjust, "probability that a turn begins with an announced adjustment")
	clock := fs.Float64("clock", def.ClockPress, "probability that the mover presses the clock")
	hesitate := fs.Float64("hesitate", def.Hesitate, "probability of a 0.5-2 s pause with a man in hand")
	passing := fs.Float64("passing", def.Passing, "probability that the moving man is set down in passing (30-400 ms) on an empty square near his own before it")
	passingNudge := fs.Float64("passing-nudge", def.PassingNudge, "probability that a man set down in passing is lifted and set back on the same square (20-80 ms in the air)")
	slowRook := fs.Float64("slow-rook", def.SlowRook, "probability that castling with the king let go first has its rook lifted 0.5-5 s after the king was set down")
	hesitateTwo := fs.Float64("hesitate-two", def.HesitateTwo, "probability that the moving man is set down on another square he could go to, lifted and held 0.3-1.5 s before his own")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var g hwtest.Game
	switch {
	case *moves != "":
		if fs.NArg() > 0 {
			return fmt.Errorf("trace: give -moves or a PGN file, not both")
		}
		var err error
		if g, err = gameFromUCI(*fen, *moves); err != nil {
			return err
		}
	default:
		games, err := readGames(fs.Args(), stdin)
		if err != nil {
			return err
		}
		if *game < 1 || *game > len(games) {
			return fmt.Errorf("trace: game %d: the input holds %d games", *game, len(games))
		}
		g = games[*game-1]
	}
	s, err := hwtest.NewSynthesiser(hwtest.SynthOptions{Seed: *seed, Laws: *laws, Style: hwtest.Style{
		FastReply: *fast, FastRecapture: *recapture, Slide: *slide, Adjust: *adjust, ClockPress: *clock, Hesitate: *hesitate,
		Passing: *passing, PassingNudge: *passingNudge, SlowRook: *slowRook, HesitateTwo: *hesitateTwo}})
	if err != nil {
		return err
	}
	var next func() (trace.Line, bool)
	header := fmt.Sprintf("# %s: %d moves, seed %d, laws %s\n# moves: %s\n", g.Name, len(g.Moves), *seed, *laws, strings.Join(g.UCI(), " "))
	if *analog {
		if *frames {
			return fmt.Errorf("trace: give -frames or -analog, not both")
		}
		model := hallsim.DefaultModel()
		model.Bits = *bits
		model.DriftTogether = !*ownDrift
		opts := hwtest.AnalogOptions{Board: model, BoardSeed: *boardSeed, Started: *started, OffCentre: *offCentre,
			Slow: *slowHands, Hover: *hover, HoverHeight: *hoverHeight}
		if *offCentre == 0 {
			opts.OffCentre = hallsim.Off
		}
		if *calOut != "" {
			if err := saveCalibration(*calOut, model, *boardSeed); err != nil {
				return err
			}
			opts.Calibration = filepath.Base(*calOut)
		}
		a, err := s.Analog(&g, 0, opts)
		if err != nil {
			return err
		}
		header += fmt.Sprintf("# an analogue board: %s, 100 scans a second\n", a.Board())
		next = a.Next
	} else {
		lines, err := s.Events(&g, 0)
		if err != nil {
			return err
		}
		if *frames {
			if lines, err = s.Frames(lines, 0); err != nil {
				return err
			}
		}
		next = func() (trace.Line, bool) {
			if len(lines) == 0 {
				return trace.Line{}, false
			}
			l := lines[0]
			lines = lines[1:]
			return l, true
		}
	}
	if _, err := io.WriteString(out, header); err != nil {
		return err
	}
	var buf []byte
	for l, ok := next(); ok; l, ok = next() {
		buf = trace.Append(buf[:0], l)
		if _, err := out.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// saveCalibration calibrates the simulated board of model and seed as
// 'boardd calibrate' would and saves the calibration at path.
func saveCalibration(path string, model hallsim.Model, seed uint64) error {
	b, err := hallsim.NewBoard(model, seed)
	if err != nil {
		return err
	}
	cal, _, err := hallsim.Calibrate(context.Background(), b)
	if err != nil {
		return err
	}
	return calibration.Save(path, cal)
}

func gameFromUCI(fen, moves string) (hwtest.Game, error) {
	g := hwtest.Game{Name: "moves", Start: board.Start()}
	if fen != "" {
		p, err := board.ParseFEN(fen)
		if err != nil {
			return g, err
		}
		g.Start = p
	}
	pos := g.Start
	for i, text := range strings.Fields(moves) {
		m, err := board.ParseUCI(text)
		if err != nil {
			return g, fmt.Errorf("trace: move %d: %w", i+1, err)
		}
		a, err := board.Analyse(pos)
		if err != nil {
			return g, err
		}
		if !a.IsLegal(m) {
			return g, fmt.Errorf("trace: move %d %s is not legal in %s", i+1, text, pos.FEN())
		}
		g.Moves = append(g.Moves, m)
		pos = pos.Apply(m)
	}
	return g, nil
}

func readGames(paths []string, stdin io.Reader) ([]hwtest.Game, error) {
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	var out []hwtest.Game
	for _, p := range paths {
		var r io.Reader = stdin
		name := "stdin"
		if p != "-" {
			f, err := os.Open(p)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			r, name = f, p
		}
		games, err := hwtest.ReadPGN(r, name)
		if err != nil {
			return nil, err
		}
		out = append(out, games...)
	}
	return out, nil
}

func gamesCmd(args []string, out io.Writer, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth games", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 100, "how many games")
	seed := fs.Uint64("seed", 1, "seed of the first game (game i has seed+i)")
	plies := fs.Int("plies", 160, "the longest game, in plies")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 0 || *plies < 1 {
		return fmt.Errorf("games: want -n >= 0 and -plies >= 1")
	}
	games := make([]hwtest.Game, *n)
	for i := range games {
		games[i] = hwtest.RandomGame(*seed+uint64(i), *plies)
	}
	return hwtest.WritePGN(out, games)
}

func pgnCmd(args []string, out io.Writer, stderr io.Writer) error {
	fs := flag.NewFlagSet("synth pgn", flag.ContinueOnError)
	fs.SetOutput(stderr)
	max := fs.Int("max", 0, "keep at most this many games of each file (0: all)")
	minPlies := fs.Int("min-plies", 0, "drop games shorter than this many plies")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var kept []hwtest.Game
	for _, p := range fs.Args() {
		games, err := readGames([]string{p}, nil)
		if err != nil {
			return err
		}
		n := 0
		for _, g := range games {
			if len(g.Moves) < *minPlies {
				continue
			}
			if *max > 0 && n == *max {
				break
			}
			kept = append(kept, g)
			n++
		}
	}
	return hwtest.WritePGN(out, kept)
}
