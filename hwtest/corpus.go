package hwtest

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/corentings/chess/v2"

	"github.com/boardd/boardd/board"
)

// ReadPGN reads every game of a PGN text (main lines only; comments and
// variations are dropped). name prefixes each game's Name ("name#3"). The
// rules library checks each move's legality as it reads it; each game is cut
// where a law-set would end it by itself (see Truncate).
func ReadPGN(r io.Reader, name string) ([]Game, error) {
	return readPGNEvery(r, name, 1)
}

// readPGNEvery reads game 1, 1+every, 1+2*every ... of a PGN text, skipping
// the others unparsed.
func readPGNEvery(r io.Reader, name string, every int) ([]Game, error) {
	sc := chess.NewScanner(r)
	var out []Game
	for n := 1; sc.HasNext(); n++ {
		if (n-1)%every != 0 {
			if _, err := sc.ScanGame(); err != nil && !errors.Is(err, io.EOF) {
				return out, fmt.Errorf("hwtest: %s game %d: %w", name, n, err)
			}
			continue
		}
		lib, err := sc.ParseNext()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return out, fmt.Errorf("hwtest: %s game %d: %w", name, n, err)
		}
		g, err := fromLibraryGame(lib, fmt.Sprintf("%s#%d", name, n))
		if err != nil {
			return out, err
		}
		out = append(out, g)
	}
	return out, nil
}

func fromLibraryGame(lib *chess.Game, name string) (Game, error) {
	g := Game{Name: name, Tags: map[string]string{}}
	for _, k := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN"} {
		if v := lib.GetTagPair(k); v != "" {
			g.Tags[k] = v
		}
	}
	fen := g.Tags["FEN"]
	if fen == "" {
		fen = board.StartFEN
	}
	start, err := board.ParseFEN(fen)
	if err != nil {
		return g, fmt.Errorf("hwtest: %s: %w", name, err)
	}
	g.Start = start
	// The library has checked every move against its position; the
	// synthesiser checks them again as it plays them.
	for _, lm := range lib.Moves() {
		g.Moves = append(g.Moves, board.Move{From: board.Square(lm.S1()), To: board.Square(lm.S2()), Promo: kindOf(lm.Promo())})
	}
	g.Moves = Truncate(g.Start, g.Moves)
	return g, nil
}

func kindOf(t chess.PieceType) board.Kind {
	switch t {
	case chess.Queen:
		return board.Queen
	case chess.Rook:
		return board.Rook
	case chess.Bishop:
		return board.Bishop
	case chess.Knight:
		return board.Knight
	}
	return board.NoKind
}

// Truncate cuts a game after the first move at which some law-set boardd
// carries would end it without a claim: a threefold repetition
// (hastings1895:VII), a dead position (fide2023:5.2.2, nycc:V), seventy-five
// moves without capture or pawn move (fide2023:9.6.2). Real games played on
// after such a point would otherwise make a replay stop early. Mate and
// stalemate end a game by themselves.
func Truncate(start board.Position, moves []board.Move) []board.Move {
	pos := start
	seen := map[board.RepetitionKey]int{pos.Key(): 1}
	for i, m := range moves {
		pos = pos.Apply(m)
		k := pos.Key()
		seen[k]++
		if seen[k] >= 3 || pos.Dead() || pos.HalfMoves >= 150 {
			return moves[:i+1]
		}
	}
	return moves
}

// LoadCorpus reads every *.pgn file in dir, in name order.
func LoadCorpus(dir string) ([]Game, error) { return LoadCorpusSample(dir, 1) }

// LoadCorpusSample reads every every-th game of each *.pgn file in dir (the
// first, then every-th after it), in name order, without parsing the games
// it skips: parsing PGN checks every move and takes time.
func LoadCorpusSample(dir string, every int) ([]Game, error) {
	if every < 1 {
		return nil, fmt.Errorf("hwtest: corpus sample: every %d: want 1 or more", every)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.pgn"))
	if err != nil {
		return nil, fmt.Errorf("hwtest: corpus %s: %w", dir, err)
	}
	sort.Strings(paths)
	var out []Game
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("hwtest: corpus: %w", err)
		}
		games, err := readPGNEvery(f, filepath.Base(p), every)
		f.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, games...)
	}
	return out, nil
}

// WritePGN writes games as PGN, tags first (the seven-tag roster, then FEN
// and SetUp for a game from a set position), then the moves in SAN.
func WritePGN(w io.Writer, games []Game) error {
	var b strings.Builder
	for _, g := range games {
		for _, k := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"} {
			v := g.Tags[k]
			if v == "" {
				v = "?"
				if k == "Result" {
					v = "*"
				}
			}
			fmt.Fprintf(&b, "[%s %q]\n", k, v)
		}
		if fen := g.Start.FEN(); fen != board.StartFEN {
			fmt.Fprintf(&b, "[FEN %q]\n[SetUp \"1\"]\n", fen)
		}
		b.WriteByte('\n')
		pos := g.Start
		col := 0
		word := func(s string) {
			if col > 0 && col+1+len(s) > 79 {
				b.WriteByte('\n')
				col = 0
			} else if col > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(s)
			col += len(s)
		}
		for i, m := range g.Moves {
			a, err := board.Analyse(pos)
			if err != nil {
				return fmt.Errorf("hwtest: write %s: %w", g.Name, err)
			}
			if pos.Turn == board.White {
				word(fmt.Sprintf("%d.", pos.FullMove))
			} else if i == 0 {
				word(fmt.Sprintf("%d...", pos.FullMove))
			}
			word(a.SAN(m))
			pos = pos.Apply(m)
		}
		res := g.Tags["Result"]
		if res == "" {
			res = "*"
		}
		word(res)
		b.WriteString("\n\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RandomGame plays a seeded random legal game from the initial position,
// biased towards the moves that are hardest to read from a board: castling,
// en passant, promotion (underpromotion included) and captures, with pawns
// pushed often so that they reach the last rank. It stops at mate,
// stalemate, where Truncate would cut, or after maxPlies.
func RandomGame(seed uint64, maxPlies int) Game {
	rng := rand.New(rand.NewPCG(seed, 0x72616e646f6d))
	g := Game{Name: fmt.Sprintf("random#%d", seed), Start: board.Start(), Tags: map[string]string{
		"Event": "boardd synthetic game", "Site": "hwtest.RandomGame", "Round": fmt.Sprint(seed),
		"White": "random", "Black": "random", "Result": "*",
	}}
	pos := g.Start
	seen := map[board.RepetitionKey]int{pos.Key(): 1}
	for len(g.Moves) < maxPlies {
		a, err := board.Analyse(pos)
		if err != nil || len(a.Moves) == 0 {
			if err == nil && a.InCheck {
				g.Tags["Result"] = map[board.Color]string{board.White: "0-1", board.Black: "1-0"}[pos.Turn]
			} else if err == nil {
				g.Tags["Result"] = "1/2-1/2"
			}
			break
		}
		weights := make([]int, len(a.Moves))
		total := 0
		for i, m := range a.Moves {
			w := 1
			man := pos.Men[m.From]
			switch {
			case pos.IsPromotion(m):
				w = 60
				if m.Promo == board.Queen {
					w = 120
				}
			case pos.IsCastling(m), pos.IsEnPassant(m):
				w = 80
			case pos.Men[m.To] != board.NoMan:
				w = 4
			case man.Kind() == board.Pawn:
				w = 5
			}
			weights[i] = w
			total += w
		}
		pick := rng.IntN(total)
		var m board.Move
		for i, w := range weights {
			if pick < w {
				m = a.Moves[i]
				break
			}
			pick -= w
		}
		g.Moves = append(g.Moves, m)
		pos = pos.Apply(m)
		k := pos.Key()
		seen[k]++
		if seen[k] >= 3 || pos.Dead() || pos.HalfMoves >= 150 {
			g.Tags["Result"] = "1/2-1/2"
			break
		}
	}
	return g
}
