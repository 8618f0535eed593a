package voice

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// describe plays uci in fen and returns what it did, failing the test on a
// bad position or move.
func describe(t *testing.T, fen, uci string) Move {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	m, err := board.ParseUCI(uci)
	if err != nil {
		t.Fatalf("ParseUCI(%q): %v", uci, err)
	}
	mv, err := Describe(p, m)
	if err != nil {
		t.Fatalf("Describe(%q, %s): %v", fen, uci, err)
	}
	return mv
}

func TestMoveWords(t *testing.T) {
	const (
		start     = board.StartFEN
		checkable = "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
		passant   = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
		castle    = "r3k2r/pppqbppp/2npbn2/4p3/4P3/2NPBN2/PPPQBPPP/R3K2R w KQkq - 0 8"
		promote   = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
		mate      = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
	)
	plain := Words{Lang: English, Convention: Plain}
	appD := Words{Lang: English, Convention: AppendixD}
	dePlain := Words{Lang: German, Convention: Plain}
	deD := Words{Lang: German, Convention: AppendixD}
	for _, c := range []struct {
		name     string
		w        Words
		fen, uci string
		want     string
	}{
		{"knight", plain, start, "g1f3", "knight from g1 to f3"},
		{"pawn double step", plain, start, "e2e4", "pawn from e2 to e4"},
		{"check", plain, checkable, "d1h5", "queen from d1 to h5, check"},
		{"capture names the man taken", plain, checkable, "e4f5", "pawn from e4 takes pawn on f5"},
		{"en passant", plain, passant, "e5f6", "pawn from e5 takes pawn on f6, en passant"},
		{"castling kingside", plain, castle, "e1g1", "castles kingside"},
		{"castling queenside", plain, castle, "e1c1", "castles queenside"},
		{"promotion", plain, promote, "a7a8n", "pawn from a7 to a8, becomes a knight"},
		{"promotion with capture and check", plain, promote, "a7b8q", "pawn from a7 takes rook on b8, becomes a queen, check"},
		{"mate", plain, mate, "d8h4", "queen from d8 to h4, checkmate"},
		{"D.2.1 knight", appD, start, "g1f3", "Springer Gustav eins Felix drei"},
		{"D.2.1 capture", appD, checkable, "e4f5", "Bauer Eva vier takes Felix fuenf"},
		{"D.2.1 short castling", appD, castle, "e1g1", "Kurze Rochade"},
		{"D.2.1 long castling", appD, castle, "e1c1", "Lange Rochade"},
		{"D.2.1 promotion names the piece", appD, promote, "a7a8n", "Bauer Anna sieben Anna acht, Springer"},
		{"D.2.1 every file and rank", appD, "4k3/8/8/8/8/8/8/B3K3 w - - 0 1", "a1h8", "Laeufer Anna eins Hector acht"},
		{"D.2.1 in German", deD, checkable, "e4f5", "Bauer Eva vier schlägt Felix fuenf"},
		{"D.2.1 mate in German", deD, mate, "d8h4", "Dame David acht Hector vier, Schachmatt"},
		{"German plain", dePlain, start, "g1f3", "Springer von g1 nach f3"},
		{"German capture", dePlain, checkable, "e4f5", "Bauer von e4 schlägt Bauer auf f5"},
		{"German castling", dePlain, castle, "e1c1", "Lange Rochade"},
		{"German promotion", dePlain, promote, "a7a8n", "Bauer von a7 nach a8, wird Springer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.w.Move(describe(t, c.fen, c.uci)); got != c.want {
				t.Errorf("%s in %s: got %q, want %q", c.uci, c.fen, got, c.want)
			}
		})
	}
}

func TestDescribeRefusesTheWrongPosition(t *testing.T) {
	m, _ := board.ParseUCI("e4e5")
	if _, err := Describe(board.Start(), m); err == nil || !strings.Contains(err.Error(), "no man on e4") {
		t.Errorf("Describe with no man on e4: %v, want an error naming e4", err)
	}
}

func TestAwaitingWords(t *testing.T) {
	mv := describe(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "g8f6")
	for _, c := range []struct {
		w    Words
		want string
	}{
		{Words{Lang: English}, "Black plays knight from g8 to f6. Make the move on the board."},
		{Words{Lang: English, Convention: AppendixD}, "Black plays Springer Gustav acht Felix sechs. Make the move on the board."},
		{Words{Lang: German, Convention: Plain}, "Schwarz spielt Springer von g8 nach f6. Bitte auf dem Brett ausführen."},
	} {
		if got := c.w.Awaiting(mv); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.w, got, c.want)
		}
	}
}

func TestClockWords(t *testing.T) {
	for _, c := range []struct {
		w            Words
		white, black time.Duration
		want         string
	}{
		{Words{}, 4*time.Minute + 32*time.Second + 900*time.Millisecond, 3*time.Minute + 5*time.Second, "White 4 minutes 32 seconds, Black 3 minutes 5 seconds."},
		{Words{}, time.Hour + time.Minute + time.Second, 0, "White 1 hour 1 minute 1 second, Black 0 seconds."},
		{Words{}, 2 * time.Hour, -time.Second, "White 2 hours, Black 0 seconds."},
		{Words{Lang: German}, 90 * time.Second, time.Second, "Weiß 1 Minute 30 Sekunden, Schwarz 1 Sekunde."},
	} {
		if got := c.w.Clocks(c.white, c.black); got != c.want {
			t.Errorf("Clocks(%v, %v) in %q: got %q, want %q", c.white, c.black, c.w.Lang, got, c.want)
		}
	}
}

func TestIrregularityWords(t *testing.T) {
	before, _ := board.ParseFEN(board.StartFEN)
	touch := report.Report{Type: report.Irregularity, Kind: report.KindTouchMove, Law: "fide2023:4.3.1", Offender: "white", Chooser: report.Black,
		Options: []report.Option{{ID: report.OptStand}, {ID: report.OptMoveTouched, Squares: []string{"g1", "f3", "h3"}}}}
	castling := report.Report{Type: report.Irregularity, Kind: report.KindFalseCastling, Law: "fide2023:4.4.3", Offender: "black", Chooser: report.Arbiter,
		Options: []report.Option{{ID: report.OptRestore}}}
	illegal := report.Report{Type: report.Irregularity, Kind: report.KindFalseMove, Law: "fide2023:7.5.1", Offender: "white", Chooser: report.Arbiter,
		Options: []report.Option{{ID: report.OptRestore}}, Offending: "g1e3"}
	touchMove := touch
	touchMove.Offending = "e2e4"
	pinned, _ := board.ParseFEN("r1bqk1nr/ppp2ppp/2n5/1B2p3/1b2P3/2N5/PPPP1PPP/R1BQK1NR b KQkq - 0 1")
	intoCheck := report.Report{Type: report.Irregularity, Kind: report.KindMovedIntoCheck, Law: "fide2023:7.5.1", Offender: "black", Chooser: report.Arbiter,
		Options: []report.Option{{ID: report.OptRestore}}, Offending: "c6e5"}
	warned := report.Report{Type: report.Irregularity, Kind: report.KindTouchMove, Law: "fide2023:4.3.1", Offender: "white", Chooser: report.WarnOnly,
		Options: []report.Option{{ID: report.OptMoveTouched, Squares: []string{"g1", "f3", "h3"}}}}
	for _, c := range []struct {
		name   string
		w      Words
		r      report.Report
		before *board.Position
		want   string
	}{
		{"warn-only: a warning, nobody chooses", Words{}, warned, &before,
			"Warning for White: a touched man not moved. Article 4.3.1. By the law: He must move the knight on g1. Only a warning: no penalty."},
		{"warn-only in German", Words{Lang: German}, warned, &before,
			"Warnung für Weiß: eine berührte Figur nicht gezogen. Artikel 4.3.1. Nach der Regel: Er muss den Springer auf g1 ziehen. Nur eine Warnung: keine Strafe."},
		{"options numbered, the man named", Words{}, touch, &before,
			"Irregularity by White: a touched man not moved. Article 4.3.1. Black chooses. Option 1: Let the move stand. Option 2: He must move the knight on g1."},
		{"the man unknown", Words{}, touch, nil,
			"Irregularity by White: a touched man not moved. Article 4.3.1. Black chooses. Option 1: Let the move stand. Option 2: He must move the man he touched."},
		{"D.2.1 names the square", Words{Convention: AppendixD}, touch, &before,
			"Irregularity by White: a touched man not moved. Article 4.3.1. Black chooses. Option 1: Let the move stand. Option 2: He must move the Springer on Gustav eins."},
		{"German", Words{Lang: German}, touch, &before,
			"Regelwidrigkeit von Weiß: eine berührte Figur nicht gezogen. Artikel 4.3.1. Schwarz wählt. Möglichkeit 1: Der Zug bleibt stehen. Möglichkeit 2: Er muss den Springer auf g1 ziehen."},
		{"one option is said without a choice", Words{}, castling, nil,
			"Irregularity by Black: an illegal castling. Article 4.4.3. Set up the position before the move again."},
		{"the offending move named", Words{}, illegal, &before,
			"White's move knight from g1 to e3 is illegal. Article 7.5.1. Set up the position before the move again."},
		{"the offending move by D.2.1", Words{Convention: AppendixD}, illegal, &before,
			"White's move Springer Gustav eins to Eva drei is illegal. Article 7.5.1. Set up the position before the move again."},
		{"the offending move in German", Words{Lang: German}, illegal, &before,
			"Zug von Weiß: Springer von g1 nach e3 ist regelwidrig. Artikel 7.5.1. Die Stellung vor dem Zug wird wiederhergestellt."},
		{"the offending move in German by D.2.1", Words{Lang: German, Convention: AppendixD}, illegal, &before,
			"Zug von Weiß: Springer Gustav eins nach Eva drei ist regelwidrig. Artikel 7.5.1. Die Stellung vor dem Zug wird wiederhergestellt."},
		{"the offending move's man unknown", Words{Convention: AppendixD}, illegal, nil,
			"White's move from Gustav eins to Eva drei is illegal. Article 7.5.1. Set up the position before the move again."},
		{"a kind of its own words", Words{}, intoCheck, &pinned,
			"Black's move knight from c6 to e5 leaves his king in check. Article 7.5.1. Set up the position before the move again."},
		{"a kind of its own words in German", Words{Lang: German}, intoCheck, &pinned,
			"Zug von Schwarz: Springer von c6 nach e5 lässt den eigenen König im Schach. Artikel 7.5.1. Die Stellung vor dem Zug wird wiederhergestellt."},
		{"a touch-move with its move", Words{Lang: German, Convention: AppendixD}, touchMove, &before,
			"Zug von Weiß: Bauer Eva zwei nach Eva vier ist regelwidrig: eine berührte Figur nicht gezogen. Artikel 4.3.1. Schwarz wählt. Möglichkeit 1: Der Zug bleibt stehen. Möglichkeit 2: Er muss den Springer auf Gustav eins ziehen."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.w.Irregularity(c.r, c.before); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestEveryKindAndOptionHasWords(t *testing.T) {
	kinds := []report.Kind{report.KindFalseMove, report.KindFalseCapture, report.KindMovedIntoCheck, report.KindFalseCastling,
		report.KindOwnCapture, report.KindMovedAdverse, report.KindSuccessive, report.KindTouchMove, report.KindUnmovable,
		report.KindUncapturable, report.KindBadPromotion, report.KindUnannounced, report.KindFalseCheck, report.KindNoticedCheck,
		report.KindSetup, report.KindClockWithoutMove}
	for _, k := range kinds {
		if _, ok := kindWords[k]; !ok {
			t.Errorf("irregularity %q has no words", k)
		}
	}
	for id := range report.OptionWords() {
		if _, ok := germanOptions[id]; !ok {
			t.Errorf("option %q has no German words", id)
		}
	}
}

func TestRulingAndResultWords(t *testing.T) {
	for _, c := range []struct {
		w    Words
		r    report.Report
		want string
	}{
		{Words{}, report.Report{Type: report.Ruling, Option: report.OptStand, By: report.Lapse}, "The right to choose has lapsed: Let the move stand."},
		{Words{}, report.Report{Type: report.Ruling, Option: report.OptRestore, By: report.Arbiter}, "The arbiter rules: Set up the position before the move again."},
		{Words{Lang: German}, report.Report{Type: report.Ruling, Option: report.OptKing, By: report.Black}, "Entscheidung von Schwarz: Er muss mit dem König ziehen."},
		{Words{Lang: German}, report.Report{Type: report.Ruling, Option: report.OptRestore, By: report.Arbiter}, "Der Schiedsrichter entscheidet: Die Stellung vor dem Zug wird wiederhergestellt."},
		{Words{}, report.Report{Type: report.Ruling, Option: report.MoveTouchedOn("b1"), By: report.Black}, "Ruled by Black: He must move the man on b1."},
		{Words{}, report.Report{Type: report.Result, Result: report.BlackWins, Reason: "White's flag fell"}, "Black wins: White's flag fell."},
		{Words{Lang: German}, report.Report{Type: report.Result, Result: report.BlackWins, Reason: "White's flag fell"}, "Schwarz gewinnt: Zeit überschritten."},
		{Words{Lang: German}, report.Report{Type: report.Result, Result: report.Draw, Reason: "White's flag fell, but Black cannot mate by any series of legal moves"}, "Remis: Zeit überschritten, aber der Gegner kann nicht mattsetzen."},
		{Words{Lang: German}, report.Report{Type: report.Result, Result: report.WhiteWins, Reason: "something new"}, "Weiß gewinnt."},
		{Words{}, report.Report{Type: report.Result, Result: report.Draw}, "Draw."},
	} {
		if got := c.w.Ruling(c.r, nil); c.r.Type == report.Ruling && got != c.want {
			t.Errorf("Ruling(%+v): got %q, want %q", c.r, got, c.want)
		}
		if got := c.w.Result(c.r); c.r.Type == report.Result && got != c.want {
			t.Errorf("Result(%+v): got %q, want %q", c.r, got, c.want)
		}
	}
}

func TestParseSettings(t *testing.T) {
	for _, s := range []string{"en", "de"} {
		if l, err := ParseLanguage(s); err != nil || l.Voice() != s {
			t.Errorf("ParseLanguage(%q) = %q, %v", s, l, err)
		}
	}
	if _, err := ParseLanguage("fr"); err == nil || !strings.Contains(err.Error(), "want en or de") {
		t.Errorf("ParseLanguage(fr): %v, want a refusal naming en and de", err)
	}
	for _, s := range []string{"plain", "appendix-d"} {
		if _, err := ParseConvention(s); err != nil {
			t.Errorf("ParseConvention(%q): %v", s, err)
		}
	}
	if _, err := ParseConvention("german"); err == nil {
		t.Error("ParseConvention(german) accepted")
	}
}

func TestRulingNamesTheManElected(t *testing.T) {
	start := board.Start()
	r := report.Report{Type: report.Ruling, Option: report.MoveTouchedOn("b1"), By: report.Black}
	for _, c := range []struct {
		w    Words
		want string
	}{
		{Words{}, "Ruled by Black: He must move the knight on b1."},
		{Words{Convention: AppendixD}, "Ruled by Black: He must move the Springer on Bella eins."},
		{Words{Lang: German}, "Entscheidung von Schwarz: Er muss den Springer auf b1 ziehen."},
	} {
		if got := c.w.Ruling(r, &start); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.w, got, c.want)
		}
	}
}

func TestBoardsDifferWords(t *testing.T) {
	if got, want := (Words{}).BoardsDiffer("move 1 is e2e4 here, d2d4 there"), "The boards differ: move 1 is e2e4 here, d2d4 there. Call the arbiter."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (Words{Lang: German}).BoardsDiffer("x"); !strings.HasPrefix(got, "Die Bretter stimmen nicht") {
		t.Errorf("German: %q", got)
	}
}
