package voice

import (
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// kindWords are the irregularities in plain words, English and German.
var kindWords = map[report.Kind][2]string{
	report.KindFalseMove:        {"an illegal move", "ein regelwidriger Zug"},
	report.KindFalseCapture:     {"an illegal capture", "ein regelwidriges Schlagen"},
	report.KindMovedIntoCheck:   {"a move that leaves the king in check", "ein Zug, der den König im Schach lässt"},
	report.KindFalseCastling:    {"an illegal castling", "eine regelwidrige Rochade"},
	report.KindOwnCapture:       {"a capture of his own man", "das Schlagen einer eigenen Figur"},
	report.KindMovedAdverse:     {"a move of his opponent's man", "der Zug einer gegnerischen Figur"},
	report.KindSuccessive:       {"two moves in a row", "zwei Züge hintereinander"},
	report.KindTouchMove:        {"a touched man not moved", "eine berührte Figur nicht gezogen"},
	report.KindUnmovable:        {"a touched man that cannot move", "eine berührte Figur, die nicht ziehen kann"},
	report.KindUncapturable:     {"a touched man that cannot be taken", "eine berührte Figur, die nicht geschlagen werden kann"},
	report.KindBadPromotion:     {"a promotion not completed", "eine unvollständige Umwandlung"},
	report.KindUnannounced:      {"a check not announced", "ein nicht angesagtes Schach"},
	report.KindFalseCheck:       {"a check called falsely", "ein falsch angesagtes Schach"},
	report.KindNoticedCheck:     {"a king left in check", "ein König im Schach stehen gelassen"},
	report.KindSetup:            {"the men set up wrongly", "falsch aufgestellte Figuren"},
	report.KindClockWithoutMove: {"the clock pressed without a move", "die Uhr ohne Zug gedrückt"},
}

// offenceWords say what an offending move is, after the move's words:
// "is illegal", "ist regelwidrig". A kind not here is "irregular" with the
// kind's words.
var offenceWords = map[report.Kind][2]string{
	report.KindFalseMove:      {"is illegal", "ist regelwidrig"},
	report.KindFalseCapture:   {"is an illegal capture", "ist ein regelwidriges Schlagen"},
	report.KindMovedIntoCheck: {"leaves his king in check", "lässt den eigenen König im Schach"},
	report.KindFalseCastling:  {"is an illegal castling", "ist eine regelwidrige Rochade"},
	report.KindOwnCapture:     {"takes his own man", "schlägt eine eigene Figur"},
	report.KindMovedAdverse:   {"moves his opponent's man", "zieht eine gegnerische Figur"},
	report.KindSuccessive:     {"is his second move in a row", "ist sein zweiter Zug hintereinander"},
}

// germanOptions are the options in German, as report's plain English words
// say them ("er" is the offender); a second form names the man.
var germanOptions = map[report.OptionID][2]string{
	report.OptStand:       {"Der Zug bleibt stehen", ""},
	report.OptRecall:      {"Der Zug wird zurückgenommen; er darf beliebig ziehen", ""},
	report.OptMoveTouched: {"Er muss die berührte Figur ziehen", "Er muss %[1]s auf %[2]s ziehen"},
	report.OptMoveTaken:   {"Er muss die eigene geschlagene Figur ziehen", "Er muss %[1]s auf %[2]s ziehen"},
	report.OptTakeTouched: {"Er muss die berührte Figur schlagen", "Er muss %[1]s auf %[2]s schlagen"},
	report.OptKing:        {"Er muss mit dem König ziehen", ""},
	report.OptRook:        {"Er muss mit dem Turm ziehen", "Er muss den Turm auf %[2]s ziehen"},
	report.OptCastle:      {"Er muss regelgerecht rochieren", ""},
	report.OptReplace:     {"Die gezogene Figur kommt zurück; er darf beliebig ziehen", ""},
	report.OptKeepFirst:   {"Der zweite Zug wird zurückgenommen", ""},
	report.OptKeepSecond:  {"Der erste Zug wird zurückgenommen; der zweite bleibt", ""},
	report.OptKeepAll:     {"Beide Züge bleiben stehen", ""},
	report.OptAnnul:       {"Die Partie wird annulliert und neu begonnen", ""},
	report.OptRestore:     {"Die Stellung vor dem Zug wird wiederhergestellt", ""},
	report.OptPromoteQ:    {"Umwandlung in eine Dame", ""},
	report.OptPromoteR:    {"Umwandlung in einen Turm", ""},
	report.OptPromoteB:    {"Umwandlung in einen Laeufer", ""},
	report.OptPromoteN:    {"Umwandlung in einen Springer", ""},
	report.OptCount:       {"Die Züge werden ab jetzt gezählt", ""},
	report.OptRefused:     {"Der Antrag wird abgelehnt", ""},
	report.OptTakeBack:    {"Die Züge werden zurückgenommen", ""},
}

// option returns an option in words, naming the man it binds where the
// position before the offending move shows him on the option's first
// square. The English words are report's own (the console's).
func (w Words) option(o report.Option, before *board.Position) string {
	piece, square := "", ""
	if before != nil && o.ID.NamesMan() && len(o.Squares) > 0 {
		if sq, err := board.ParseSquare(o.Squares[0]); err == nil {
			if m := before.Men[sq]; m != board.NoMan {
				square, piece = w.square(sq), w.piece(m.Kind())
				if w.german() {
					piece = w.germanArticle(m.Kind()) + " " + piece
				}
			}
		}
	}
	if !w.german() {
		if o.ID == report.OptTakeBack {
			return "Take the moves back"
		}
		if _, ok := o.ID.TouchedSquare(); ok && piece != "" {
			// The square as the convention names it, not the id's.
			return report.OptMoveTouched.WordsOn(piece, square)
		}
		return o.ID.WordsOn(piece, square)
	}
	id := o.ID
	if sq, ok := id.TouchedSquare(); ok {
		id = report.OptMoveTouched
		if piece == "" {
			return "Er muss die Figur auf " + sq + " ziehen"
		}
	}
	ws, ok := germanOptions[id]
	if !ok {
		return string(o.ID)
	}
	if piece != "" && ws[1] != "" {
		return fmt.Sprintf(ws[1], piece, square)
	}
	return ws[0]
}

// germanArticle is the accusative article of a kind: "den Springer", "die
// Dame".
func (w Words) germanArticle(k board.Kind) string {
	if k == board.Queen {
		return "die"
	}
	return "den"
}

// party names who chooses or rules.
func (w Words) party(p report.Party) string {
	switch p {
	case report.White:
		return w.side(board.White)
	case report.Black:
		return w.side(board.Black)
	case report.Arbiter:
		if w.german() {
			return "Der Schiedsrichter"
		}
		return "The arbiter"
	}
	return string(p)
}

// sideOf names a report's side ("white", "black") as the language says it.
func (w Words) sideOf(s string) string {
	if c, err := board.ParseColor(s); err == nil {
		return w.side(c)
	}
	return s
}

// law says a law's number: "Article 7.5.1" ("" for none).
func (w Words) law(l report.Law) string {
	if l == "" {
		return ""
	}
	if w.german() {
		return " Artikel " + l.Number() + "."
	}
	return " Article " + l.Number() + "."
}

// Irregularity returns the words of an irregularity: who offended, what he
// did, the law, who chooses and the options, numbered as the buttons offer
// them. before is the position before the offending move (nil if unknown),
// where an option's man is found to be named.
func (w Words) Irregularity(r report.Report, before *board.Position) string {
	var b strings.Builder
	kind := string(r.Kind)
	if ws, ok := kindWords[r.Kind]; ok {
		kind = ws[0]
		if w.german() {
			kind = ws[1]
		}
	}
	if r.Chooser == report.WarnOnly {
		return w.warning(r, kind, before)
	}
	move := w.offendingMove(r.Offending, before)
	switch {
	case move != "":
		what, ok := offenceWords[r.Kind]
		if !ok {
			what = [2]string{"is irregular: " + kind, "ist regelwidrig: " + kind}
		}
		if w.german() {
			fmt.Fprintf(&b, "Zug von %s: %s %s.", w.sideOf(r.Offender), move, what[1])
		} else {
			fmt.Fprintf(&b, "%s's move %s %s.", w.sideOf(r.Offender), move, what[0])
		}
	case w.german():
		fmt.Fprintf(&b, "Regelwidrigkeit von %s: %s.", w.sideOf(r.Offender), kind)
	default:
		fmt.Fprintf(&b, "Irregularity by %s: %s.", w.sideOf(r.Offender), kind)
	}
	b.WriteString(w.law(r.Law))
	if len(r.Options) == 0 {
		return b.String()
	}
	if len(r.Options) == 1 {
		fmt.Fprintf(&b, " %s.", w.option(r.Options[0], before))
		return b.String()
	}
	if w.german() {
		fmt.Fprintf(&b, " %s wählt.", w.chooser(r.Chooser))
	} else {
		fmt.Fprintf(&b, " %s chooses.", w.chooser(r.Chooser))
	}
	for i, o := range r.Options {
		if w.german() {
			fmt.Fprintf(&b, " Möglichkeit %d: %s.", i+1, w.option(o, before))
		} else {
			fmt.Fprintf(&b, " Option %d: %s.", i+1, w.option(o, before))
		}
	}
	return b.String()
}

// offendingMove names an irregularity's move (UCI) from square to square,
// with its man where before shows him on the square it left: "knight from
// g1 to e3", "Springer von g1 nach e3", by Appendix D "Springer Gustav
// eins nach Eva drei". It is "" for no move.
func (w Words) offendingMove(uci string, before *board.Position) string {
	m, err := board.ParseUCI(uci)
	if uci == "" || err != nil {
		return ""
	}
	piece := ""
	if before != nil {
		if man := before.Men[m.From]; man != board.NoMan {
			piece = w.piece(man.Kind()) + " "
		}
	}
	from, to := "from ", " to "
	switch {
	case w.german() && w.Convention == AppendixD:
		from, to = "", " nach "
	case w.german():
		from, to = "von ", " nach "
	case w.Convention == AppendixD:
		from = ""
	}
	if piece == "" && from == "" {
		// No man to name: the squares alone, still saying where from.
		from = map[bool]string{false: "from ", true: "von "}[w.german()]
	}
	return piece + from + w.square(m.From) + to + w.square(m.To)
}

// warning returns the words of a warn-only warning (nobody chooses): who
// erred and how, the law, what it would have exacted (its options, not
// offered), and that no penalty is exacted.
func (w Words) warning(r report.Report, kind string, before *board.Position) string {
	var b strings.Builder
	what := kind
	if move := w.offendingMove(r.Offending, before); move != "" {
		what += ", " + move
	}
	if w.german() {
		fmt.Fprintf(&b, "Warnung für %s: %s.", w.sideOf(r.Offender), what)
	} else {
		fmt.Fprintf(&b, "Warning for %s: %s.", w.sideOf(r.Offender), what)
	}
	b.WriteString(w.law(r.Law))
	for i, o := range r.Options {
		switch {
		case i > 0 && w.german():
			fmt.Fprintf(&b, " Oder: %s.", w.option(o, before))
		case i > 0:
			fmt.Fprintf(&b, " Or: %s.", w.option(o, before))
		case w.german():
			fmt.Fprintf(&b, " Nach der Regel: %s.", w.option(o, before))
		default:
			fmt.Fprintf(&b, " By the law: %s.", w.option(o, before))
		}
	}
	if w.german() {
		b.WriteString(" Nur eine Warnung: keine Strafe.")
	} else {
		b.WriteString(" Only a warning: no penalty.")
	}
	return b.String()
}

// chooser names who chooses (the subject of a sentence).
func (w Words) chooser(p report.Party) string { return w.party(p) }

// Ruling returns the words of a ruling: who ruled and what. before is the
// position the ruling is made in (nil if unknown), where the man an
// elected option binds ("move-touched-b1") is found to be named.
func (w Words) Ruling(r report.Report, before *board.Position) string {
	o := report.Option{ID: r.Option}
	if sq, ok := r.Option.TouchedSquare(); ok {
		o.Squares = []string{sq}
	}
	what := w.option(o, before)
	switch {
	case r.By == report.Lapse && w.german():
		return fmt.Sprintf("Die Wahl ist verfallen: %s.", what)
	case r.By == report.Lapse:
		return fmt.Sprintf("The right to choose has lapsed: %s.", what)
	case r.By == report.Arbiter && w.german():
		return fmt.Sprintf("Der Schiedsrichter entscheidet: %s.", what)
	case r.By == report.Arbiter:
		return fmt.Sprintf("The arbiter rules: %s.", what)
	case w.german():
		return fmt.Sprintf("Entscheidung von %s: %s.", w.party(r.By), what)
	}
	return fmt.Sprintf("Ruled by %s: %s.", w.party(r.By), what)
}

// germanReasons are the results' reasons in German, found by a phrase of
// the English reason (report's, as the arbiter and the law-sets write
// them), the first phrase found deciding: the longer phrases come first.
// TestEveryResultReasonHasWords holds every reason a game can report to
// this list.
var germanReasons = []struct{ phrase, words string }{
	{"flag fell, but", "Zeit überschritten, aber der Gegner kann nicht mattsetzen"},
	{"flag fell", "Zeit überschritten"},
	{"exceeded the time limit and forfeits", "Bedenkzeit überschritten, die Partie ist verloren"},
	{"exceeded the time limit", "Bedenkzeit überschritten"},
	{"checkmate", "Schachmatt"},
	{"stalemated player wins", "Patt: der Pattgesetzte gewinnt"},
	{"stalemate", "Patt"},
	{"continual repetition", "fortgesetzte Wiederholung derselben Züge"},
	{"fivefold repetition", "fünfmalige Stellungswiederholung"},
	{"repetition claimed", "dreimalige Stellungswiederholung, beansprucht"},
	{"repetition", "Stellungswiederholung"},
	{"dead position", "tote Stellung"},
	{"insufficient", "ungenügendes Material"},
	{"seventy-five moves", "75-Züge-Regel"},
	{"fifty moves", "50-Züge-Regel"},
	{"moves counted without mate", "die gezählten Züge ohne Matt gespielt"},
	{"since the call without capture", "die Züge seit der Ansage ohne Schlagen, Bauernzug oder Matt gespielt"},
	{"second illegal move, but", "zweiter regelwidriger Zug, aber der Gegner kann nicht mattsetzen"},
	{"second illegal move", "zweiter regelwidriger Zug"},
	{"white resigns", "Weiß gibt auf"},
	{"black resigns", "Schwarz gibt auf"},
	{"draw agreed", "Remis vereinbart"},
	{"declared by the arbiter", "vom Schiedsrichter erklärt"},
}

// germanReason returns a result's reason in German, "" where no phrase of
// germanReasons is found in it.
func germanReason(reason string) string {
	lower := strings.ToLower(reason)
	for _, g := range germanReasons {
		if strings.Contains(lower, g.phrase) {
			return g.words
		}
	}
	return ""
}

// Result returns the words of a game's end: "White wins: Black's flag
// fell." A flag fall is a result whose reason says so.
func (w Words) Result(r report.Report) string {
	var who string
	switch r.Result {
	case report.WhiteWins:
		who = w.side(board.White) + map[bool]string{false: " wins", true: " gewinnt"}[w.german()]
	case report.BlackWins:
		who = w.side(board.Black) + map[bool]string{false: " wins", true: " gewinnt"}[w.german()]
	case report.Draw:
		who = map[bool]string{false: "Draw", true: "Remis"}[w.german()]
	default:
		who = map[bool]string{false: "The game is over", true: "Die Partie ist beendet"}[w.german()]
	}
	reason := r.Reason
	if w.german() {
		reason = germanReason(r.Reason)
	}
	if reason == "" {
		return who + "."
	}
	return who + ": " + reason + "."
}

// duration says a time left in whole seconds: "1 hour 2 minutes 5
// seconds", "45 seconds", "0 seconds".
func (w Words) duration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d / time.Second)
	h, m, sec := s/3600, s/60%60, s%60
	unit := func(n int, one, many, einer, mehrere string) string {
		switch {
		case w.german() && n == 1:
			return fmt.Sprintf("%d %s", n, einer)
		case w.german():
			return fmt.Sprintf("%d %s", n, mehrere)
		case n == 1:
			return fmt.Sprintf("%d %s", n, one)
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	var parts []string
	if h > 0 {
		parts = append(parts, unit(h, "hour", "hours", "Stunde", "Stunden"))
	}
	if m > 0 {
		parts = append(parts, unit(m, "minute", "minutes", "Minute", "Minuten"))
	}
	if sec > 0 || len(parts) == 0 {
		parts = append(parts, unit(sec, "second", "seconds", "Sekunde", "Sekunden"))
	}
	return strings.Join(parts, " ")
}
