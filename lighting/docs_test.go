package lighting_test

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/game"
	"github.com/boardd/boardd/led"
	"github.com/boardd/boardd/lighting"
	"github.com/boardd/boardd/trace"
)

var update = flag.Bool("update", false, "rewrite docs/leds/*.png and the generated table of docs/leds.md from the frames drawn of the game's snapshots")

// ledStory is a game played through the real game; its scenes are the LED
// frames drawn of its snapshot at given times, pictured in docs/leds.md.
type ledStory struct {
	laws   string
	setup  string // FEN; empty for the initial position
	trace  string // lift, place and choose lines
	scenes []ledScene
}

type ledScene struct {
	name  string // docs/leds/<name>.png and <name>-mono.png
	at    int    // ms: the frame is the one composed at this time
	fault bool   // the sensors are marked faulty at that time
	hint  string // a move suggested to the player then (UCI), as an engine's hint
	what  string // one line for the generated table
}

// ledStories are the states docs/leds.md shows. Each picture is the frame
// lighting.Compose makes of the snapshot at the scene's time, drawn with the
// men standing on the board at that time.
func ledStories() []ledStory {
	return []ledStory{
		{
			laws: "sarratt1808",
			trace: `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"e7"}
{"t":1200,"place":"e5"}
{"t":2000,"lift":"g1"}
{"t":2150,"place":"g1"}
{"t":2800,"lift":"d2"}
{"t":3000,"place":"d4"}
{"t":5000,"choose":"move-touched","side":"black"}
{"t":5400,"lift":"d4"}
{"t":5550,"place":"d2"}
{"t":6500,"lift":"g1"}`,
			scenes: []ledScene{
				{name: "last-move", at: 1800, what: "1.e4 e5 played: the last move"},
				{name: "touched", at: 2100, what: "White lifts the knight on g1"},
				{name: "options", at: 4000, what: "the knight set back without j'adoube, 2.d4 played instead: Black chooses stand (a) or move-touched (b), sarratt1808:7"},
				{name: "take-back", at: 5100, what: "Black chose move-touched: the pawn goes back from d4 to d2"},
				{name: "must-move", at: 6000, what: "the board put right: the knight on g1 must move, and may go to e2, f3 or h3"},
				{name: "must-move-in-hand", at: 6600, what: "the knight that must move lifted"},
			},
		},
		{
			laws:  "fide2023",
			setup: "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 8",
			trace: `{"t":0,"lift":"f3"}
{"t":200,"place":"h4"}
{"t":2000,"lift":"e8"}
{"t":2200,"place":"c8"}`,
			scenes: []ledScene{
				{name: "landing", at: 400, what: "the knight set on h4 and still for the quick settle time: shown as pending until the hand can no longer carry it on (the settle time, a clock press, Black's hand)"},
				{name: "landing-castling", at: 4000, what: "Black's king set on c8, the rook not yet moved: the castling is not finished, and the rook is guided however long it takes"},
			},
		},
		{
			laws: "sarratt1808",
			trace: `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"d7"}
{"t":1200,"place":"d5"}
{"t":2000,"lift":"d5"}
{"t":2150,"place":"d5"}
{"t":2800,"lift":"g1"}
{"t":3000,"place":"f3"}
{"t":5000,"choose":"take-touched","side":"black"}
{"t":5400,"lift":"f3"}
{"t":5550,"place":"g1"}`,
			scenes: []ledScene{
				{name: "must-take", at: 6000, what: "1.e4 d5, White touched the pawn on d5 and played 2.Nf3; Black chose take-touched (sarratt1808:9); the knight is back: the pawn on d5 must be taken, by the pawn on e4"},
			},
		},
		{
			laws: "fide2023",
			trace: `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"e7"}
{"t":1200,"place":"e5"}
{"t":3000,"lift":"c2"}
{"t":3100,"lift":"d2"}
{"t":3300,"place":"c3"}
{"t":3400,"place":"d4"}`,
			scenes: []ledScene{
				{name: "mismatch", at: 4500, what: "1.e4 e5, then two pawns knocked from c2 and d2 onto c3 and d4: no move reads so"},
			},
		},
		{
			laws: "fide2023",
			trace: `{"t":0,"lift":"e2"}
{"t":200,"place":"e4"}
{"t":1000,"lift":"e7"}
{"t":1200,"place":"e5"}`,
			scenes: []ledScene{
				{name: "fault", at: 2000, fault: true, what: "1.e4 e5, then the scanner reports a fault (SetFault)"},
			},
		},
		{
			laws: "fide2023",
			trace: `{"t":0,"lift":"f2"}
{"t":200,"place":"f3"}
{"t":1000,"lift":"e7"}
{"t":1200,"place":"e5"}
{"t":2000,"lift":"g2"}
{"t":2200,"place":"g4"}
{"t":3000,"lift":"d8"}
{"t":3200,"place":"h4"}`,
			scenes: []ledScene{
				{name: "result-win", at: 4000, what: "1.f3 e5 2.g4 Qh4#: Black wins"},
			},
		},
		{
			laws: "fide2023",
			trace: `{"t":0,"remote":"black"}
{"t":100,"lift":"e2"}
{"t":300,"place":"e4"}
{"t":1500,"opponent":"g8f6"}
{"t":2500,"lift":"g8"}
{"t":3500,"place":"f6"}
{"t":5000,"lift":"d2"}
{"t":5200,"place":"d4"}
{"t":6500,"opponent":"f6e4"}`,
			scenes: []ledScene{
				{name: "carry", at: 2000, what: "Black is played by an engine: 1.e4, and the engine answers 1...Nf6: the player carries it out"},
				{name: "carry-in-hand", at: 3000, what: "the knight lifted from g8: its square goes dark, f6 stays lit"},
				{name: "carry-capture", at: 7000, what: "2.d4, and the engine takes: 2...Nxe4"},
				{name: "hint", at: 4500, hint: "d2d4", what: "the player asked for a hint after 1.e4 Nf6: 2.d4"},
			},
		},
		{
			laws:  "fide2023",
			setup: "r3k2r/pppq1ppp/2n2n2/4p3/4P3/2N2N2/PPPQ1PPP/R3K2R b KQkq - 0 1",
			trace: `{"t":0,"remote":"black"}
{"t":1000,"opponent":"e8c8"}`,
			scenes: []ledScene{
				{name: "carry-castling", at: 1500, what: "the engine castles long: the king and the rook to move, each with its square"},
			},
		},
		{
			laws:  "fide2023",
			setup: "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
			trace: `{"t":0,"remote":"black"}
{"t":1000,"opponent":"e4d3"}`,
			scenes: []ledScene{
				{name: "carry-en-passant", at: 1500, what: "the engine takes en passant: the pawn taken blinks fast to be lifted"},
			},
		},
		{
			laws:  "fide2023",
			setup: "4k3/8/8/8/8/8/p7/4K3 b - - 0 1",
			trace: `{"t":0,"remote":"black"}
{"t":1000,"opponent":"a2a1n"}`,
			scenes: []ledScene{
				{name: "carry-promotion", at: 1500, what: "the engine promotes to a knight: the square the new man goes on blinks fast (the console names him)"},
			},
		},
		{
			laws:  "fide2023",
			setup: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1",
			trace: `{"t":0,"lift":"g5"}
{"t":200,"place":"g6"}`,
			scenes: []ledScene{
				{name: "result-draw", at: 1000, what: "Qg6 stalemates: a draw"},
			},
		},
	}
}

// ledSceneFrame plays the story up to the scene's time and returns the frame
// and the men standing on the board then. The men are followed through the
// lifts and places (a man placed is the one last lifted) and must stand on
// exactly the squares the recogniser reads as occupied.
func ledSceneFrame(t *testing.T, st ledStory, sc ledScene) (led.Frame, [64]board.Man) {
	t.Helper()
	lines, err := trace.ReadAll(strings.NewReader(st.trace))
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	p, err := game.New(game.Options{Laws: st.laws, Setup: st.setup}, nil)
	if err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	men := p.Snapshot().Position.Men
	at := time.Duration(sc.at) * time.Millisecond
	var hand []board.Man
	for _, l := range lines {
		if l.T > at {
			break
		}
		if err := p.Input(l); err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		switch l.Kind {
		case trace.Lift:
			hand = append(hand, men[l.Square])
			men[l.Square] = board.NoMan
		case trace.Place:
			if len(hand) == 0 {
				t.Fatalf("%s: a man placed on %s with none in hand", sc.name, l.Square)
			}
			men[l.Square] = hand[len(hand)-1]
			hand = hand[:len(hand)-1]
		}
	}
	p.Advance(at)
	if sc.fault {
		p.SetFault(at, true)
	}
	if sc.hint != "" {
		m, err := board.ParseUCI(sc.hint)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		p.SetHint(at, &m)
	}
	var occ board.Occupancy
	for sq, m := range men {
		if m != board.NoMan {
			occ = occ.With(board.Square(sq))
		}
	}
	snap := p.Snapshot()
	if got := snap.Occupancy; got != occ {
		t.Fatalf("%s: the men followed stand on %v, the recogniser reads %v", sc.name, occ.SquareNames(), got.SquareNames())
	}
	return lighting.Compose(snap), men
}

// describe lists the lit squares of f grouped by role and blink, and what a
// single-colour matrix shows of them: each square read through Frame.Mono at
// the four led.MonoPhases as steady (lit in all), slow (the first two), fast
// (the first and third) or by its pattern.
func describe(f *led.Frame) (colour, mono string) {
	type key struct {
		r led.Role
		b led.Blink
	}
	groups := map[key][]string{}
	for sq := board.Square(0); sq < 64; sq++ {
		if f.Role[sq] != led.Off {
			k := key{f.Role[sq], f.Blink[sq]}
			groups[k] = append(groups[k], sq.String())
		}
	}
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].r != keys[j].r {
			return keys[i].r < keys[j].r
		}
		return keys[i].b < keys[j].b
	})
	var cs []string
	for _, k := range keys {
		cs = append(cs, fmt.Sprintf("%s %s %s", strings.Join(groups[k], " "), k.r, k.b))
	}
	if len(cs) == 0 {
		cs = []string{"nothing lit"}
	}

	var lit [4]board.Occupancy
	for i, at := range led.MonoPhases() {
		lit[i] = f.Mono(at)
	}
	classes := map[string][]string{}
	var order []string
	for sq := board.Square(0); sq < 64; sq++ {
		var pattern string
		for i := range lit {
			if lit[i].Has(sq) {
				pattern += "1"
			} else {
				pattern += "0"
			}
		}
		name := map[string]string{"0000": "", "1111": "steady", "1100": "slow", "1010": "fast"}[pattern]
		if pattern != "0000" && name == "" {
			name = "lit " + pattern
		}
		if name == "" {
			continue
		}
		if _, ok := classes[name]; !ok {
			order = append(order, name)
		}
		classes[name] = append(classes[name], sq.String())
	}
	rank := func(n string) int {
		switch n {
		case "steady":
			return 0
		case "slow":
			return 1
		case "fast":
			return 2
		}
		return 3
	}
	sort.SliceStable(order, func(i, j int) bool { return rank(order[i]) < rank(order[j]) })
	var ms []string
	for _, n := range order {
		ms = append(ms, n+": "+strings.Join(classes[n], " "))
	}
	if len(ms) == 0 {
		ms = []string{"dark"}
	}
	return strings.Join(cs, "; "), strings.Join(ms, "; ")
}

const (
	ledDocDir    = "../docs/leds"
	ledDoc       = "../docs/leds.md"
	ledDocBegin  = "<!-- begin generated: go test ./lighting -run TestLEDDocs -update -->"
	ledDocEnd    = "<!-- end generated -->"
	ledDocMaxPNG = 30 << 10
	regenerate   = "regenerate with: go test ./lighting -run TestLEDDocs -update (then review docs/leds.md)"
)

// TestLEDDocs keeps docs/leds.md in step with the code: every picture in
// docs/leds/ must be, pixel for pixel, the rendering of the frame Compose
// draws of the game for its scene now, and the generated table must list
// the frames' lit squares as they are.
func TestLEDDocs(t *testing.T) {
	images := map[string]image.Image{}
	var table strings.Builder
	table.WriteString(ledDocBegin + "\n\n| state | what happened | lit squares: role, blink | single-colour matrix |\n|---|---|---|---|\n")
	for _, st := range ledStories() {
		for _, sc := range st.scenes {
			f, men := ledSceneFrame(t, st, sc)
			colour, mono := describe(&f)
			fmt.Fprintf(&table, "| [%s](leds/%s.png) | %s | %s | %s |\n", sc.name, sc.name, sc.what, colour, mono)
			img, err := led.Render(&f, 0, led.RenderOpts{Men: &men})
			if err != nil {
				t.Fatal(err)
			}
			images[sc.name+".png"] = img
			if img, err = led.RenderMonoCycle(&f, 0, led.RenderOpts{Square: 24, Men: &men}); err != nil {
				t.Fatal(err)
			}
			images[sc.name+"-mono.png"] = img
		}
	}
	table.WriteString("\n" + ledDocEnd)
	for r := led.MustMove; r <= led.LastRole; r++ {
		img, err := led.RenderSwatch(r, led.Steady, 32)
		if err != nil {
			t.Fatal(err)
		}
		images["role-"+r.String()+".png"] = img
	}
	for _, b := range []led.Blink{led.Steady, led.Slow, led.Fast} {
		img, err := led.RenderSwatch(led.MustMove, b, 32)
		if err != nil {
			t.Fatal(err)
		}
		images["blink-"+b.String()+".png"] = img
	}

	names := make([]string, 0, len(images))
	for name := range images {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		checkLEDPicture(t, name, images[name])
	}
	checkLEDTable(t, table.String())
}

func checkLEDPicture(t *testing.T, name string, img image.Image) {
	t.Helper()
	path := filepath.Join(ledDocDir, name)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > ledDocMaxPNG {
		t.Errorf("%s: %d bytes encoded, want at most %d", path, buf.Len(), ledDocMaxPNG)
	}
	if *update {
		if err := os.MkdirAll(ledDocDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v; %s", path, err, regenerate)
		return
	}
	have, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Errorf("%s: %v; %s", path, err, regenerate)
		return
	}
	if diff := pixelDiff(have, img); diff != "" {
		t.Errorf("%s is not the frame the game composes now: %s; %s", path, diff, regenerate)
	}
}

// pixelDiff says where two images first differ, or "" when they are the
// same pixel for pixel.
func pixelDiff(have, want image.Image) string {
	if have.Bounds() != want.Bounds() {
		return fmt.Sprintf("size %v, want %v", have.Bounds(), want.Bounds())
	}
	n, first := 0, image.Point{}
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := have.At(x, y).RGBA()
			r2, g2, b2, a2 := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if n == 0 {
					first = image.Pt(x, y)
				}
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d pixels differ, the first at %v", n, first)
}

func checkLEDTable(t *testing.T, table string) {
	t.Helper()
	data, err := os.ReadFile(ledDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, ledDocBegin), strings.Index(doc, ledDocEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: the markers %q and %q of the generated table are missing", ledDoc, ledDocBegin, ledDocEnd)
	}
	have := doc[i : j+len(ledDocEnd)]
	if have == table {
		return
	}
	if *update {
		if err := os.WriteFile(ledDoc, []byte(doc[:i]+table+doc[j+len(ledDocEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: the generated table is not what the frames say now; %s\nwant:\n%s", ledDoc, regenerate, table)
}
