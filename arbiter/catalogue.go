package arbiter

import (
	"fmt"
	"sort"
	"strings"
)

// The law catalogue: every numbered law of the four historical codes and the
// articles of the FIDE Laws that a board can touch, each summarised in
// boardd's own words with how boardd applies it, or why a board cannot. It
// backs `boardd laws` and the law ids in boardd's output: every id boardd
// emits has an entry (a test keeps them in step). The texts themselves are
// not reproduced; docs/laws.md explains the vocabulary.

// Status says how far boardd applies a law.
type Status uint8

// How far boardd applies a law.
const (
	// Applied: boardd rules by the law as the entry describes.
	Applied Status = iota + 1
	// Partial: boardd applies part of the law; the entry says which part
	// it cannot or does not apply.
	Partial
	// Planned: a board could sense what the law speaks of, but boardd does
	// not apply it yet; the application begins "planned:".
	Planned
	// Outside: the law speaks of what a board cannot sense or decide
	// (seating, lots, prizes, hands, correspondence).
	Outside
)

var statusNames = [...]string{Applied: "applied", Partial: "partial", Planned: "planned", Outside: "outside"}

// String returns the status as `boardd laws` prints it.
func (s Status) String() string {
	if int(s) < len(statusNames) && statusNames[s] != "" {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", s)
}

// Law is one numbered law of a law-set as boardd understands it.
type Law struct {
	// ID is SET:NUMBER, as boardd writes it in its output: "sarratt1808:13",
	// "nycc:XII", "hastings1895:time-limit", "fide2023:7.5.1".
	ID string
	// Title is a few words naming the law.
	Title string
	// Summary says what the law provides, in one line of boardd's own words.
	Summary string
	// Application says how boardd applies the law (the irregularity kind,
	// its options and chooser, the result, the input it listens to), or why
	// a board cannot apply it.
	Application string
	Status      Status
}

// Set returns the law-set id of the law ("nycc" for "nycc:XII").
func (l Law) Set() string { s, _, _ := strings.Cut(l.ID, ":"); return s }

// Number returns the law's number within its set ("XII" for "nycc:XII").
func (l Law) Number() string { _, n, _ := strings.Cut(l.ID, ":"); return n }

// Catalogue returns every law boardd knows, set by set in the order of
// LawSetIDs, each set's laws in the order of its code. The slice is new on
// every call; callers may keep or change it.
func Catalogue() []Law {
	var out []Law
	for _, id := range LawSetIDs() {
		out = append(out, setLaws(id)...)
	}
	return out
}

// LawsOf returns the laws of one law-set in the order of its code, or an
// error naming the known law-sets.
func LawsOf(set string) ([]Law, error) {
	laws := setLaws(set)
	if laws == nil {
		ids := LawSetIDs()
		sort.Strings(ids)
		return nil, fmt.Errorf("unknown law-set %q: known law-sets are %s", set, strings.Join(ids, ", "))
	}
	return laws, nil
}

// LawByID returns the catalogue entry of a law id such as "nycc:XII".
func LawByID(id string) (Law, bool) {
	set, _, ok := strings.Cut(id, ":")
	if !ok {
		return Law{}, false
	}
	for _, l := range setLaws(set) {
		if l.ID == id {
			return l, true
		}
	}
	return Law{}, false
}

func setLaws(set string) []Law {
	switch set {
	case "sarratt1808":
		return sarrattLaws()
	case "philidor1825":
		return philidorLaws()
	case "nycc":
		return nyccLaws()
	case "hastings1895":
		return hastingsLaws()
	case "fide2023":
		return fideLaws()
	}
	return nil
}

// entry builds one catalogue entry.
func entry(id string, st Status, title, summary, application string) Law {
	return Law{ID: id, Title: title, Summary: summary, Application: application, Status: st}
}

// Phrases that recur in the applications.
const (
	liftIsTouch   = "A Hall-sensor board senses a man lifted, not a finger laid on it: a lift (or a lift and a replacement on the same square) is the touch, though a man jostled off its square and back within a bump (120 ms) binds nobody; the j'adoube button pressed just before the lift exempts it."
	byGenerator   = "Applied by the rules of movement (package board): boardd accepts only moves that respect it, and any other is a false move."
	calibrated    = "The sensor board's orientation is fixed when it is calibrated (a1 a dark square at White's left), so the board cannot stand the wrong way round; boardd cannot see a cloth board turned."
	noSeats       = "boardd knows the two halves of the board, not who sits at them or how colours were drawn."
	handLeaves    = "The gesture layer completes a move when the hand has left it: the board stays still for the settle time, the mover presses the clock, or the adversary's hand arrives; until then the man may still go to another square."
	notSensed     = "A board senses where men stand, not the people or the room."
	countOnClaim  = "The claim button starts the count (a ruling line with option count); boardd does not check which side has the lesser force or that the ending is one the law names; once the moves have been played from the call without mate, boardd ends the game drawn."
	arbiterAction = "The arbiter may declare a result or annul the game from the console (arbiter actions result and annul)."
)

func sarrattLaws() []Law {
	const s = "sarratt1808:"
	return []Law{
		entry(s+"1", Outside, "Placing the board",
			"The board goes with a light square at each player's right; a board found wrongly placed before four moves each is put right and the game begun again, after that it stays.",
			calibrated+" A claim that the men were set up wrongly is ruled under sarratt1808:2."),
		entry(s+"2", Applied, "Men misplaced at the start",
			"Men set up wrongly may be put right at the demand of whoever notices first, so long as four moves each have not been played; after that they stay as they are.",
			"The claim button before each side's fourth move, in a game that began from a wrong set-up, raises misplaced-setup (sarratt1808:2): the arbiter annuls the game (option annul) and the board is guided to the initial position. A board that reads occupancy alone cannot tell men swapped on their squares: boardd checks the claim against the starting position it was given (a set-up line or FEN). After four moves each the claim does nothing."),
		entry(s+"3", Applied, "Men forgotten",
			"A player who began without some of his men and does not notice before the fourth move has been played finishes the game without them.",
			"A man missing from the squares boardd expects is shown on the LEDs before the first move, and nothing counts as a move until the board matches. In a game begun from a set-up lacking men, the claim button before each side's fourth move raises misplaced-setup (sarratt1808:3) and the arbiter annuls the game; later the claim does nothing and the game goes on without them."),
		entry(s+"4", Partial, "Odds agreed but not given",
			"If the stronger player agreed to give odds but began with all his men, he must finish so, and the weaker cannot lose: a mate of him counts as a draw.",
			"With --odds boardd sets up the odds position itself and the LEDs ask for the given man to come off before play, so the game cannot begin even by mistake; the remedy (a mate of the receiver scored as a draw) is not applied."),
		entry(s+"5", Outside, "First move in even games",
			"In even games the first move is drawn for, and then alternates game by game.",
			noSeats+" Every game starts with White to move."),
		entry(s+"6", Applied, "First move at odds",
			"The giver of odds moves first, unless the move is part of the odds given (pawn and move).",
			"--odds sets the starting position: the giver has the move unless the odds include it (pawn-and-move, or move added to the list)."),
		entry(s+"7", Applied, "Touched man must move",
			"A man touched must be moved unless the player said j'adoube as he touched it; a man off its centre or fallen must be set right with j'adoube, or the adversary may make him play it.",
			liftIsTouch+" A move made with another man raises touch-move (sarratt1808:7); the adversary chooses stand (let it pass) or move-touched (the move is taken back and the touched man must move). A man lifted and set back on its square without j'adoube binds like any touch. The claim lapses as sarratt1808:21 says."),
		entry(s+"8", Applied, "Completing a move",
			"While a player holds a man he may set it where he likes; once he has let go, the move cannot be taken back.",
			handLeaves),
		entry(s+"9", Applied, "Adverse man touched",
			"Touching an adversary's man without j'adoube obliges the player to take it; if it cannot be taken he must move his king; if the king cannot move either, there is no penalty.",
			"A touched adverse man not taken raises touch-move (sarratt1808:9) with stand or take-touched. An adverse man lifted and set back that cannot be taken raises touched-uncapturable (sarratt1808:9) as soon as it is released, with king (the squares the king may go to) or stand; nothing is raised when the king cannot move."),
		entry(s+"10", Applied, "Adverse man moved",
			"A player who moves one of his adversary's men by mistake may be made to take it (if he can), to put it back, or to leave it where he played it.",
			"moved-adverse-man (sarratt1808:10), chosen by the adversary: stand, take-touched (back, then take that man) or replace (the man is put back and the offender moves freely); options that cannot be carried out are left off."),
		entry(s+"11", Applied, "False capture",
			"A capture with a man that cannot make it may be turned into a capture of the same man by another of his men, or into a move of the man that tried, at the adversary's choice.",
			"A false move onto an adverse man raises false-move (sarratt1808:11): stand, take-touched (the adverse man must be taken by some man) or move-touched (the man that tried must move)."),
		entry(s+"12", Applied, "Own man taken",
			"Taking one's own man lets the adversary make the player move either of the two men.",
			"own-capture (sarratt1808:12), chosen by the adversary: stand, move-touched (the man that took) or move-taken (the own man taken); the move is taken back first."),
		entry(s+"13", Applied, "False move",
			"After a false move the adversary may leave it, have the man played to a lawful square, or have it put back and the king moved instead.",
			"false-move (sarratt1808:13), chosen by the adversary: stand, move-touched or king. (A move that leaves the king in check is ruled under sarratt1808:17.)"),
		entry(s+"14", Applied, "Two moves in succession",
			"A player who moves twice running may be made to put the second move back, or the game goes on as if both were one move.",
			"successive-moves (sarratt1808:14), chosen by the adversary: keep-first (the second move is taken back) or keep-all."),
		entry(s+"15", Applied, "En passant",
			"A pawn advancing two squares may be taken in passing by an adverse pawn (the Italian custom of passing free is not followed).",
			byGenerator),
		entry(s+"16", Applied, "Castling",
			"No castling after the king or the rook has moved, out of check or across an attacked square; castling wrongly is put back and the adversary makes him move the king or that rook. Only the usual castling squares are allowed.",
			"The squares and conditions are the rules of movement. A false castling raises false-castling (sarratt1808:16): the adversary chooses king or rook, after which the men are put back. The code is silent on the order of the men, so the rook may go first (rook-first castling is castling)."),
		entry(s+"17", Applied, "Touched man pinned",
			"A player who touches a man that cannot move without exposing his king must move the king; if the king cannot move, there is no penalty.",
			"A man lifted and set back that has no legal move raises touched-unmovable (sarratt1808:17) as soon as it is released: king or stand, chosen by the adversary; nothing when the king cannot move. A completed move that leaves the mover's king in check raises moved-into-check (sarratt1808:17) with king. boardd applies the law to any man without a legal move, not only one pinned to its king."),
		entry(s+"18", Applied, "Check must be announced",
			"Check must be said aloud; an unannounced check may be ignored, and if the checker says check on a later move the checked player may take back his last move and parry.",
			"The check button announces a check: pressed by the checker during his move or before the adversary replies. A king in an unannounced check may stay in it (the move stands). When the checker presses check later, unannounced-check (sarratt1808:18) is raised, chosen by the checked player: recall (the moves since the check are taken back and the check must be parried) or stand."),
		entry(s+"19", Planned, "Check unnoticed for several moves",
			"If a king has stood in check for two or more moves and nobody can tell how, the checked player may, on noticing it, take back his last move and parry.",
			"planned: the checked player noticing a long-standing check himself is not an input yet; a late announcement by the checker is ruled under sarratt1808:18."),
		entry(s+"20", Applied, "False announcement of check",
			"A player who moved his king or touched a man to meet a check that was announced but not given may take that move back, provided the announcer has not made his next move.",
			"The check button pressed with a move that gives no check, followed by the adversary's move, raises false-check (sarratt1808:20), chosen by the misled player: recall or stand; the right lapses when the announcer moves. A man only touched in answer to the false check is not released from touch-move."),
		entry(s+"21", Applied, "Claims lapse once the claimant plays",
			"A player who has moved, or even touched a man, before noticing his adversary's false move or other error can no longer have the penalty.",
			"Under sarratt1808 a pending choice lapses as soon as the offended player lifts a man in his turn: a ruling line records stand by lapse (sarratt1808:21)."),
		entry(s+"22", Applied, "Promotion",
			"A pawn reaching the last rank may become a queen or any other piece, however many of that kind are already on the board.",
			"The promote button names the piece (a Hall board cannot tell a queen from a knight); an unnamed promotion is taken as a queen without penalty."),
		entry(s+"23", Applied, "Fifty moves to mate",
			"In endings such as rook and bishop against rook, or knight and bishop against the king, the stronger side that cannot mate within fifty moves has drawn; no limit applies when a mate with a marked pawn or piece was undertaken.",
			countOnClaim+" The marked-pawn exception is not applied."),
		entry(s+"24", Applied, "Stalemate",
			"A stalemated king makes the game a draw.",
			"A stalemate ends the game 1/2-1/2 (sarratt1808:24)."),
		entry(s+"25", Outside, "Disputes",
			"A disputed point the laws do not settle goes to uninterested bystanders, whose decision binds both players.",
			notSensed+" "+arbiterAction),
	}
}

func philidorLaws() []Law {
	const s = "philidor1825:"
	return []Law{
		entry(s+"I", Partial, "Placing the board",
			"The board goes with a light square at each player's right; a player who finds it wrongly placed before four moves each may insist that the game begin again.",
			calibrated+" The code has no law for men misplaced, so boardd rules such a claim under this one: the claim button before each side's fourth move, in a game that began from a wrong set-up, raises misplaced-setup (philidor1825:I) and the arbiter annuls the game. Men swapped on their squares cannot be seen; the claim is checked against the starting position boardd was given."),
		entry(s+"II", Partial, "First move",
			"The giver of a piece has the move unless agreed otherwise; in even games lots decide, and then the move alternates.",
			"--odds sets the starting position with the giver to move unless the move is given too. "+noSeats),
		entry(s+"III", Partial, "A man forgotten",
			"If a man was left off at the start, the adversary chooses between beginning afresh and going on with the forgotten man put in its place.",
			"A man missing from the squares boardd expects is shown on the LEDs before the first move. In a game begun from a set-up lacking a man, the claim button raises misplaced-setup (philidor1825:III), chosen by the forgetter's adversary: annul, or stand (play on). boardd accepts the claim only before each side's fourth move, though the law sets no limit, and stand does not put the forgotten man back."),
		entry(s+"IV", Partial, "Odds forgotten",
			"If odds were agreed but the man was not removed, the player who suffered by the mistake chooses to go on or to begin again.",
			"With --odds boardd sets up the odds position itself and the LEDs ask for the given man to come off before play, so the mistake cannot happen on a boardd board; no claim is offered."),
		entry(s+"V", Applied, "Touched man must be played",
			"A man touched must be played unless the player said j'adoube; a man knocked over or displaced by accident may be put back by its owner.",
			liftIsTouch+" A move made with another man raises touch-move (philidor1825:V): the adversary chooses stand or move-touched. Beyond a bump boardd cannot tell an accident from a touch: a man lifted and set back without j'adoube binds."),
		entry(s+"VI", Applied, "Adverse man touched",
			"Touching an adversary's man without j'adoube lets him oblige the player to take it; a man that cannot be taken obliges a king move, if the king can move.",
			"A touched adverse man not taken raises touch-move (philidor1825:VI): stand or take-touched. One lifted and set back that cannot be taken raises touched-uncapturable (philidor1825:VI) on release: king or stand. An adverse man moved raises moved-adverse-man (philidor1825:VI): stand, take-touched or king."),
		entry(s+"VII", Applied, "Completing a move",
			"While the player keeps hold of a man he may play it anywhere; once let go it cannot be taken up again to go elsewhere.",
			handLeaves),
		entry(s+"VIII", Applied, "False moves and their limit",
			"A false move obliges a king move as in VI; it cannot be recalled after the adversary's next move, and then stands as if it were lawful.",
			"false-move and own-capture (philidor1825:VIII): the adversary chooses stand or king. boardd also rules successive-moves under this law, the nearest the code has: keep-all or keep-first. A pending choice lapses when the adversary completes his own next move: a ruling line records stand by lapse (philidor1825:VIII)."),
		entry(s+"IX", Applied, "Promotion",
			"A pawn on the last rank may become a queen or any piece thought fit, even with all the pieces still on the board (the editor notes the rule was later qualified).",
			"The promote button names the piece (a Hall board cannot tell a queen from a knight); an unnamed promotion is taken as a queen without penalty."),
		entry(s+"X", Applied, "Pawn's double step and en passant",
			"A pawn may advance two squares on its first move, and may then be taken in passing by a pawn that could have taken it had it moved one.",
			byGenerator),
		entry(s+"XI", Applied, "How to castle",
			"In castling the king moves two squares: the rook comes to the square next to the king's and the king passes over it to the other side.",
			byGenerator+" The code is silent on which man goes first, so rook-first castling is castling."),
		entry(s+"XII", Applied, "When castling is barred",
			"No castling in check, after the king has moved, across a square in check, or with a moved rook; whoever castles wrongly must play the rook or the king, at his own choice.",
			"false-castling (philidor1825:XII), chosen by the offender himself: rook or king; the men are put back first."),
		entry(s+"XIII", Applied, "Check without warning",
			"A check given without saying so need not be parried; if the checker says check on his next move, both players retract their last moves and the check is met.",
			"The check button announces a check: pressed by the checker during his move or before the adversary replies. A king in an unannounced check may stay in it (the move stands). When the checker presses check later, unannounced-check (philidor1825:XIII) is raised and the arbiter recalls the moves since the check (option recall); the checked player must then parry."),
		entry(s+"XIV", Applied, "Check announced but not given",
			"A player warned of a check that was not given, who touched or moved a man because of it, may retract until his adversary has completed his next move.",
			"The check button pressed with a move that gives no check, followed by the adversary's move, raises false-check (philidor1825:XIV), chosen by the misled player: recall or stand; the right lapses when the announcer completes his next move. A man only touched because of the false warning is not released from touch-move."),
		entry(s+"XV", Applied, "Touched man pinned",
			"A man touched that cannot be played without exposing the king obliges a king move; if the king cannot move, there is no penalty.",
			"A man lifted and set back that has no legal move raises touched-unmovable (philidor1825:XV) on release: king or stand, chosen by the adversary; nothing when the king cannot move. A completed move leaving the mover's king in check raises moved-into-check (philidor1825:XV) with king. boardd applies the law to any man without a legal move, not only a pinned one."),
		entry(s+"XVI", Applied, "Stalemate",
			"A king not in check whose side has no move is stalemated; under the English rule the stalemated player wins (the editor notes France counts it a draw).",
			"A stalemate ends the game as a win for the stalemated player (philidor1825:XVI)."),
		entry(s+"XVII", Applied, "Fifty moves for difficult mates",
			"When a player seems not to know how to force a difficult mate, his adversary may ask that fifty moves each be fixed; without mate by then the game is drawn.",
			countOnClaim),
	}
}

func nyccLaws() []Law {
	const s = "nycc:"
	return []Law{
		entry(s+"I", Outside, "Position of the board",
			"The board goes with a light corner square at each player's right.",
			calibrated),
		entry(s+"II", Applied, "En passant",
			"A pawn passing a square attacked by an adverse pawn with its double step may be taken in passing; the capture is compulsory when it is the only move.",
			byGenerator+" When the capture is the only legal move, anything else is a false move (nycc:XII)."),
		entry(s+"III", Applied, "Promotion",
			"A pawn on the last rank becomes at once a queen, rook, bishop or knight, whatever pieces have been lost.",
			"The promote button names the piece (a Hall board cannot tell a queen from a knight); an unnamed promotion is taken as a queen without penalty."),
		entry(s+"IV", Applied, "Announcing check",
			"Check must be said aloud when given; an unannounced check need not be parried and a man touched meanwhile need not be moved or taken; a late announcement recalls the moves since (or annuls the game if that cannot be done); a check announced but not given lets the adversary recall his answer unless the announcer has touched a man for his next move.",
			"The check button announces a check: pressed by the checker during his move or before the adversary replies. A king in an unannounced check may stay in it, and no touch-move penalty is exacted from its side meanwhile. The checker pressing check later raises unannounced-check (nycc:IV): the arbiter recalls the moves since the check (recall). A check announced with a move that gives none, answered by a move, raises false-check (nycc:IV): recall or stand, chosen by the misled player; the right lapses once the announcer touches a man. The annulment for a recall that cannot be made is not needed: boardd keeps every position."),
		entry(s+"V", Applied, "Drawn games",
			"Only mate wins; perpetual check or a repetition both players persist in, stalemate, and force insufficient to mate on both sides are draws.",
			"Mate ends the game (nycc:V). Stalemate ends it 1/2-1/2 (nycc:V). When neither side has the men to mate, boardd ends it drawn at once (nycc:V). A claim (the claim button) once the position has stood three times is taken as the repetition and draws; perpetual check is drawn the same way, as a repetition."),
		entry(s+"VI", Applied, "Sixty moves to mate",
			"In an ending, the player with the lesser force (or either, when forces are equal) may require mate within sixty moves each, counted from his notice, or the game is drawn.",
			countOnClaim),
		entry(s+"VII", Partial, "First move and colours",
			"Lots decide the first move and, if wished, the colours; each keeps his colour for the sitting and the first move alternates; the giver of piece odds moves first unless agreed otherwise.",
			"--odds sets the starting position with the giver to move unless the move is given too. "+noSeats),
		entry(s+"VIII", Applied, "Time for moves",
			"Thinking time is unlimited unless the players agree beforehand on a limit and a penalty for exceeding it.",
			"A time control given to boardd (--time-control) is taken as the agreement, and a fallen flag loses the game (nycc:VIII); without a control there is no limit."),
		entry(s+"IX", Partial, "Wrong arrangement of board or men",
			"A wrong arrangement or a missing man found before each side's fourth move lets either player have the game begun again (later only by consent); so does a wrong first mover; at odds the given man not removed lets the receiver choose to restart or play on without odds, and odds moves neglected may be put right before the fourth move.",
			"The claim button before each side's fourth move, in a game that began from a wrong set-up or lacking a man, raises misplaced-setup (nycc:IX) and the arbiter annuls the game. Men swapped on their squares cannot be seen: the claim is checked against the starting position boardd was given. boardd itself keeps the turn, so nobody can move first out of turn without a successive-moves ruling. planned: the odds clauses (man not removed, odds moves neglected)."),
		entry(s+"X", Applied, "Touched man moved or taken",
			"A man touched must be moved and an adverse man touched must be taken, unless j'adoube was said; a man knocked over may be set back silently; in castling either man may go first; a move is complete when the hand leaves it; nobody is excused by his adversary's own lapses.",
			liftIsTouch+" A move made with another man raises touch-move (nycc:X): the adversary chooses stand, move-touched or take-touched (and king when several men were touched, nycc:XI). Beyond a bump boardd cannot tell an accident from a touch: a man lifted and set back without j'adoube binds. Rook-first castling is castling. "+handLeaves),
		entry(s+"XI", Applied, "Several men touched, or one that cannot move",
			"If several men are touched the adversary picks which must move or be taken, or may require a king move; a touched man that cannot move or be taken obliges a king move; penalties must be exacted before the adversary's own next move; none where no lawful penalty exists; a king moved as a penalty may not castle.",
			"A man lifted and set back that cannot be moved or taken raises touched-unmovable or touched-uncapturable (nycc:XI) on release: king (without castling) or stand; nothing when the king cannot move. A pending choice lapses when the adversary completes his own next move: a ruling line records stand by lapse (nycc:XI). When several men were touched boardd names the first one that binds; the adversary cannot yet pick another of them."),
		entry(s+"XII", Applied, "False moves",
			"After a capture of one's own man, a move of an adverse man or any unlawful move the adversary may let it stand, allow it to be recalled, or require the touched man to move lawfully or the king to move; after a false castling he may let it stand, allow correct castling, or have the king or rook moved; a promotion to an adverse piece or on a wrong square is recalled and the king must move.",
			"false-move, own-capture and moved-adverse-man (nycc:XII), chosen by the adversary: stand, recall, move-touched or king. false-castling (nycc:XII): stand, castle, king or rook. A promotion to a piece of the wrong colour cannot be seen by a Hall board; one set on a wrong square is read as an ordinary false move with the options above. Options that cannot be carried out are left off."),
		entry(s+"XIII", Applied, "Moving into check",
			"A player who puts his own king in check must be told at once and must move the king elsewhere, or the game is annulled unless both agree to go on; after a discovered check that cannot stay covered the king must move.",
			"moved-into-check (nycc:XIII) is raised as soon as the move completes, so the notice is immediate: the adversary chooses king (the move taken back and the king moved). If he plays on instead the claim lapses (nycc:XI) and the move stands, where the law would annul the game. Under an unannounced check (nycc:IV) the king may stay in check."),
		entry(s+"XIV", Applied, "Successive moves",
			"If one player moves twice or more in succession the adversary may keep all or any one of the moves, or have all recalled and choose which touched man moves or require a king move; a man played onto a square of its own side may be made to move lawfully or the king to move; a penalty not exacted at once annuls the game unless the players agree.",
			"successive-moves (nycc:XIV), chosen by the adversary: keep-all, keep-first, recall (both moves taken back) or king. The choice of which touched man must move and the annulment for a penalty not exacted are not offered; a move onto an own man is ruled as own-capture (nycc:XII)."),
		entry(s+"XV", Outside, "Correspondence, consultation, blindfold",
			"Games by correspondence follow the spirit of the laws (sending a move is touching, its arrival completes it); consulting partners are one party; a blindfold player answers only for the moves he announces.",
			"boardd judges moves made on its board; letters, consultation and blindfold representatives are beyond what it senses."),
		entry(s+"XVI", Partial, "Games at odds",
			"At odds the pawn given is the king's bishop's pawn; mate promised with a given pawn must come before it promotes; the giver of a rook cannot castle on that side unless agreed; odds of several moves may not carry a man past the middle of the board.",
			"--odds pawn removes the king's bishop's pawn; --odds rook removes the queen's rook and with it castling on that side (other squares may be named). The promise to mate with a given pawn and the limit on odds moves are not applied."),
		entry(s+"XVII", Outside, "Spectators",
			"Onlookers must not comment on the game or take part in it by word or sign.",
			notSensed),
		entry(s+"XVIII", Outside, "Disputes and agreed departures",
			"Points the laws do not settle, or their meaning, go to the spectators or a committee the players choose; the players may set any law aside by prior agreement.",
			notSensed+" "+arbiterAction),
	}
}

func hastingsLaws() []Law {
	const s = "hastings1895:"
	return []Law{
		entry(s+"I", Applied, "Misplaced board or men",
			"A player who notices before his fourth move that the board or men were placed wrongly may demand that the game begin again.",
			"The claim button before each side's fourth move, in a game that began from a wrong set-up, raises misplaced-setup (hastings1895:I) and the arbiter annuls the game. boardd allows the claim until both sides have made four moves, where the rule counts the claimant's own moves. Men swapped on their squares cannot be seen: the claim is checked against the starting position boardd was given."),
		entry(s+"II", Outside, "First move and colour",
			"Lots decide the first move and colour before the first game; in a match the first move alternates.",
			noSeats),
		entry(s+"III", Applied, "J'adoube",
			"A player who wants to adjust a man must say j'adoube before touching it, or rule IV applies.",
			liftIsTouch),
		entry(s+"IV", Applied, "Touched men",
			"An own man touched must be moved and an adverse man taken if it can be; with several touched the adversary chooses which; where that cannot be exacted the king must move, without castling, and if it cannot, no penalty; the adversary must claim before his own next move, on his own time.",
			"touch-move (hastings1895:IV): move-touched or take-touched; touched-unmovable and touched-uncapturable (hastings1895:IV): king, without castling, exacted at once; nothing when the king cannot move. No player may waive a penalty here (hastings1895:arrangements), so stand is never offered and a lone option is applied by the arbiter at once. boardd also rules false moves under this rule, the code having none for them: false-move, own-capture and moved-into-check with move-touched or king, moved-adverse-man with take-touched or king. A pending choice lapses when the adversary completes his own next move. With a time control the chooser's own clock runs while he considers."),
		entry(s+"V", Applied, "Completing a move",
			"A move is not complete until the player's hand has left the man.",
			handLeaves),
		entry(s+"VI", Applied, "Check",
			"Check is said to the king only and need not be called; if it is not called, rule IV's penalties cannot be enforced; the attacked king must be got out of check as soon as attention is drawn to it, and moves made meanwhile are cancelled.",
			"The check button calls a check. While a king stands in an uncalled check no touch-move penalty is exacted from its side. boardd draws attention to every check at once: a move that leaves the mover's king attacked is ruled moved-into-check under hastings1895:IV (the move taken back, then move-touched or king), so no moves are made while a king stands attacked. A late call by the checker (unannounced-check, hastings1895:VI, recall) can therefore hardly arise."),
		entry(s+"VII", Applied, "Threefold repetition",
			"The same position three times, with the same player to move each time, is a draw.",
			"Drawn automatically as soon as the position stands for the third time (hastings1895:VII); no claim is needed."),
		entry(s+"VIII", Applied, "Fifty moves",
			"Either player may at any time call on the other to mate within fifty moves each; if by then nothing has been captured, no pawn moved and no mate given, a draw can be had.",
			"The claim button starts the count (a ruling line with option count, hastings1895:VIII); a later claim, once fifty moves each have been played since the call and the last fifty moves each were without capture or pawn move, ends the game drawn."),
		entry(s+"IX", Applied, "Castling",
			"No castling out of check or across an attacked square; the king must be moved first, or at least touched before the rook is let go.",
			"The conditions are the rules of movement; a false castling raises false-castling (hastings1895:IX): king or rook. Castling counts only when the king moves first or is lifted while the rook is still in hand; a rook set down first is a rook move, and the king following is successive-moves."),
		entry(s+"X", Applied, "Naming the promotion",
			"A pawn on the eighth rank must be named a queen or another piece, as the player pleases, whatever is on the board; the new piece acts at once; until it is named the move is not complete.",
			"An unnamed promotion raises bad-promotion (hastings1895:X), chosen by the promoting player: promote-q, promote-r, promote-b or promote-n (or the promote button); the board meanwhile reads the man on the last rank as a queen."),
		entry(s+"XI", Applied, "Time runs until the move is complete",
			"A player's time runs until his move is complete under these rules.",
			"With a time control the mover's clock runs until boardd reads his move as complete (hastings1895:V), and the clocks switch then."),
		entry(s+"XII", Partial, "Adjourned game set up wrongly",
			"If an adjourned game is resumed from a wrongly set position, the moves since are void and play goes on from the correct position at the adjournment.",
			"Whenever boardd expects a position it does not see (a game resumed, a take-back) the LEDs show the squares to fix and nothing counts as a move until the board matches, so a wrong set-up is caught before play; men swapped on their squares cannot be seen."),
		entry(s+"XIII", Outside, "A clock that kept bad time",
			"When a clock is shown to have recorded wrong time the umpire adjusts the record fairly, except for a clock that was simply stopped, which each player must watch.",
			"An arbiter's judgement on evidence; boardd's clocks run on the daemon's own time."),
		entry(s+"place-and-date", Outside, "Place and Date",
			"Where the tournament was held and when it began.",
			notSensed),
		entry(s+"prizes", Outside, "Prizes",
			"The seven money prizes, with two brilliancy prizes added later.",
			"Prizes are the organisers' business."),
		entry(s+"special-prizes", Outside, "Special Prizes",
			"Extra prizes for the most Evans Gambits won, the first to win seven games, and the best score against the prize winners by a non-prize winner.",
			"Prizes are the organisers' business; boardd's PGN records the openings and results they would be judged on."),
		entry(s+"entrance-fee", Outside, "Entrance Fee",
			"Entries and their fee were due by a fixed date.",
			"Entries are the organisers' business."),
		entry(s+"order-of-play", Outside, "Order of Play",
			"Every player meets every other once, in an order drawn by lot in public and revealed day by day.",
			"Pairings are the organisers' business (the club hall shows which boards play)."),
		entry(s+"consolation", Outside, "Consolation",
			"Non-prize winners receive money for each game won, more for wins against the top three.",
			"Money is the organisers' business."),
		entry(s+"score", Applied, "Score",
			"A win scores one, a loss nothing, a draw a half to each.",
			"Every result line and PGN gives 1-0, 0-1 or 1/2-1/2, which is this scoring; totals are the organisers'."),
		entry(s+"days-of-play", Outside, "Days of Play",
			"The playing days, with one day a week kept for unfinished games.",
			"The schedule is the organisers' business."),
		entry(s+"hours-of-play", Outside, "Hours of Play",
			"The afternoon and evening sessions; no evening adjournment before sixty moves each have been recorded.",
			"Sessions are the organisers' business; boardd's PGN shows how many moves have been played."),
		entry(s+"time-limit", Applied, "Time Limit",
			"Thirty moves in the first two hours and fifteen an hour after; a player who oversteps forfeits the game.",
			"--time-control hastings1895 sets this control; a fallen flag forfeits the game (hastings1895:time-limit). Without a time control boardd keeps no time."),
		entry(s+"differences", Applied, "Differences between Players",
			"The official in charge decides every question between the players, finally on matters of fact, with appeal to the committee on others.",
			"Where the code gives no rule boardd leaves the decision to the arbiter: successive-moves (hastings1895:differences) is ruled by the arbiter with keep-first, applied at once. The arbiter can also choose any pending option, declare a result or annul the game from the console."),
		entry(s+"absentees", Outside, "Absentees",
			"Clocks are started at the set time; a player an hour late loses, and a game neither player attends within the hour is not scored.",
			"boardd cannot tell who is seated. "+arbiterAction),
		entry(s+"adjournments", Outside, "Adjournments",
			"At an adjournment the player to move seals his next move with the official, who makes it on the board when play resumes; analysing the game or consulting during the adjournment is forbidden on pain of expulsion.",
			"Sealing is done on paper; when the official makes the sealed move on the board boardd reads it like any other move. Analysis away from the board is beyond it."),
		entry(s+"scores-of-the-games", Partial, "Scores of the Games",
			"The games belong to the committee; the winner, or the first player after a draw, hands in a correct score, and the result counts only once he has.",
			"boardd writes the score itself (boardd pgn, and the end line of a replay), every ruling in it as a comment; handing it in is the organisers' business."),
		entry(s+"arrangements", Applied, "Arrangements between Players",
			"Arrangements affecting the result are illegal without the committee's consent; everyone plays at full strength and no player may waive a penalty, under the tournament rules or the laws.",
			"Under hastings1895 (and under any law-set with --tournament) the waivers stand and keep-all are never offered, and where one option remains the arbiter applies it at once. A choice left open until the adversary plays on still lapses (hastings1895:IV)."),
		entry(s+"withdrawing", Outside, "Withdrawing",
			"A player who withdraws forfeits his unplayed games, his fee and any consolation money.",
			"The organisers' business."),
		entry(s+"tie-among-prize-winners", Outside, "Tie among Prize Winners",
			"A tie for first is played off as a match for the first to win three games (draws not counting) or arranged by the committee; other ties share the prizes.",
			"The organisers' business; each play-off game is an ordinary game on the board."),
		entry(s+"modification", Outside, "Modification of Regulations",
			"The committee may change any regulation in special cases.",
			"The organisers' business."),
	}
}

func fideLaws() []Law {
	const s = "fide2023:"
	pawnMove := byGenerator
	return []Law{
		entry(s+"3.7.1", Applied, "Pawn's step",
			"A pawn may step to the empty square straight in front of it.", pawnMove),
		entry(s+"3.7.2", Applied, "Pawn's first move",
			"On its first move a pawn may instead go two squares straight ahead if both are empty.", pawnMove),
		entry(s+"3.7.3", Applied, "Pawn's capture",
			"A pawn captures an adverse man diagonally in front of it on a neighbouring file.", pawnMove),
		entry(s+"3.7.3.1", Applied, "En passant",
			"A pawn beside an adverse pawn that has just made its double step may take it as if it had moved one square.",
			pawnMove+" The gesture layer accepts the taken pawn lifted before or after the capturing pawn is set down."),
		entry(s+"3.7.3.2", Applied, "En passant only at once",
			"That capture is lawful only on the move straight after the double step.", pawnMove),
		entry(s+"3.7.3.3", Applied, "Promotion",
			"A pawn played to the last rank must be exchanged, in the same move and on that square, for a new queen, rook, bishop or knight of its colour.",
			"The promote button names the piece; a Hall board cannot tell which piece stands on the square. An unnamed promotion is ruled under fide2023:7.5.2."),
		entry(s+"3.7.3.4", Applied, "Any piece may be chosen",
			"The choice is not limited to pieces already captured.",
			"Any of the four may be named, whatever stands on the board."),
		entry(s+"3.7.3.5", Applied, "The new piece acts at once",
			"The exchange is called promotion, and the new piece acts from that move on.",
			"The named piece stands in the position from the promoting move on: its checks and moves count at once."),
		entry(s+"4.1", Outside, "One hand",
			"Every move is made with one hand.",
			"A Hall-sensor board sees men, not hands."),
		entry(s+"4.2.1", Applied, "Adjusting",
			"Only the player having the move may adjust men on their squares, after first saying that he is adjusting.",
			"The j'adoube button pressed just before a lift makes it an adjustment that binds nobody (an adjust line with announced true). An adjustment by the player not having the move is reported but binds nothing."),
		entry(s+"4.2.2", Partial, "Contact counts as intent",
			"Apart from that, any deliberate contact with a man counts as intent to move or take it; clearly accidental contact does not.",
			liftIsTouch+" A man only touched, not lifted, is not seen, and beyond a bump boardd cannot tell an accident from intent."),
		entry(s+"4.3", Applied, "Touching with intent",
			"Except when adjusting, a player having the move who touches men meaning to move or take them is bound as 4.3.1-4.3.3 say.",
			"See 4.3.1-4.3.3; the claim lapses as 4.8 says."),
		entry(s+"4.3.1", Applied, "Own men touched",
			"Touching one or more of one's own men binds the player to move the first of them that can move.",
			liftIsTouch+" A move made otherwise raises touch-move (fide2023:4.3.1), chosen by the opponent: stand (no claim) or move-touched (the move is taken back and that man must move)."),
		entry(s+"4.3.2", Applied, "Adverse men touched",
			"Touching one or more adverse men binds the player to take the first of them that can be taken.",
			"A move that does not take it raises touch-move (fide2023:4.3.2): stand or take-touched."),
		entry(s+"4.3.3", Applied, "Men of both colours touched",
			"Touching men of both colours binds the player to take the first adverse man touched with his first own man touched, or if that is illegal to move or take the first touched that can; in doubt the own man counts as touched first.",
			"touch-move (fide2023:4.3.3): stand or take-touched. boardd accepts, and demands, a capture of any touched adverse man by any touched own man, not only the first of each."),
		entry(s+"4.4.1", Applied, "King and rook touched",
			"A player who touches his king and a rook must castle on that side if it is legal.",
			"The king lifted first and then a rook of its side, and another move made while castling on that side was legal, raises touch-move (fide2023:4.4.1), chosen by the opponent: stand or castle (back, then the player must castle)."),
		entry(s+"4.4.2", Applied, "Rook touched before the king",
			"A player who touches a rook and then his king may not castle on that side this move; 4.3.1 then governs.",
			"Castling after the rook was lifted first raises touch-move (fide2023:4.4.2), chosen by the opponent: stand or rook (back, then the rook must move). A rook set down and let go first is a completed rook move; the king following is successive-moves (fide2023:7.5.1)."),
		entry(s+"4.4.3", Applied, "Illegal castling attempted",
			"A player who, meaning to castle, touches the king then a rook with which castling is illegal must make another legal king move (castling the other way included); if the king has none, any legal move.",
			"false-castling (fide2023:4.4.3): the arbiter restores the position (restore) and the king must then move; a king with no legal move frees the player. The completed castling also counts as an illegal move (fide2023:7.5.5)."),
		entry(s+"4.4.4", Partial, "Promotion piece fixed",
			"In promoting, the choice of piece is final once the piece has touched the promotion square.",
			"A Hall board cannot see which piece touches the square: boardd takes the piece named with the promote button, and a new name before the move is complete replaces the old."),
		entry(s+"4.5", Applied, "Nothing touched can move",
			"If none of the men touched can be moved or taken, the player may make any legal move.",
			"No penalty: boardd raises nothing."),
		entry(s+"4.6", Applied, "Ways of promoting",
			"The promotion may be carried out in several ways, as 4.6.1-4.6.3 say.",
			"See 4.6.1-4.6.3."),
		entry(s+"4.6.1", Applied, "Pawn need not reach the square",
			"The pawn need not be put on the promotion square.",
			"The gesture layer reads a pawn lifted from the seventh rank and a piece set on the eighth as the promotion."),
		entry(s+"4.6.2", Applied, "Any order",
			"Removing the pawn and placing the new piece may happen in either order.",
			"The gesture layer accepts either order."),
		entry(s+"4.6.3", Applied, "Capturing on the promotion square",
			"An adverse man on the promotion square must be captured.",
			pawnMove),
		entry(s+"4.7", Applied, "A released man stays",
			"A man released on a square as (part of) a legal move cannot then go to another square; when the move is made is set out in 4.7.1-4.7.3.",
			handLeaves),
		entry(s+"4.7.1", Applied, "Capture made",
			"A capture is made when the captured man is off the board and the capturing man has been set down and released.",
			"The gesture layer waits for both the lift of the captured man and the placing of the capturing man."),
		entry(s+"4.7.2", Applied, "Castling made",
			"Castling is made when the rook is released on the square the king crossed; once the king is released only castling that side may follow, or if that is illegal another king move, or any move if the king has none.",
			"A king set two squares over waits for its rook; if castling that side is illegal the ruling is fide2023:4.4.3."),
		entry(s+"4.7.3", Applied, "Promotion made",
			"A promotion is made when the new piece is released on the square and the pawn has left the board.",
			"Completed by the hand leaving like any move; an unnamed promotion is ruled under fide2023:7.5.2."),
		entry(s+"4.8", Applied, "Claims lapse on touching",
			"A player loses the right to claim against his opponent's breach of 4.1-4.7 once he touches a man meaning to move or take it.",
			"A pending touch-move choice lapses as soon as the opponent lifts a man in his turn: a ruling line records stand by lapse (fide2023:4.8)."),
		entry(s+"5.1.1", Applied, "Checkmate",
			"The player who checkmates wins, and the game ends at once, provided the mating move was legal.",
			"Mate ends the game 1-0 or 0-1 (fide2023:5.1.1)."),
		entry(s+"5.1.2", Partial, "Resignation",
			"A player who declares that he resigns loses at once, unless his opponent could not mate by any series of legal moves, when it is a draw.",
			"There is no resign button: the arbiter declares the result from the console (arbiter action result); boardd does not check whether the opponent could mate."),
		entry(s+"5.2.1", Applied, "Stalemate",
			"A player to move with no legal move and not in check is stalemated: the game is drawn at once.",
			"A stalemate ends the game 1/2-1/2 (fide2023:5.2.1)."),
		entry(s+"5.2.2", Applied, "Dead position",
			"A position from which neither side can mate by any series of legal moves ends the game drawn at once.",
			"boardd ends the game drawn (fide2023:5.2.2) when neither side has the men to mate; dead positions of other kinds (locked pawns) are not recognised."),
		entry(s+"5.2.3", Partial, "Draw by agreement",
			"The players may agree a draw during the game once each has made a move.",
			"There is no draw-offer button: the arbiter records an agreed draw from the console (arbiter action result 1/2-1/2); the one-move condition is not checked."),
		entry(s+"6.2.1", Partial, "The clock press completes the move",
			"Having moved, the player stops his own clock and starts his opponent's, which completes the move.",
			"With a time control (--time-control) a false move is not judged until the clock is pressed (or the adversary's hand arrives), so it may be put right without penalty before the press; a legal move is recorded when the hand has left it and the clocks switch then. Without a clock every move completes when the hand leaves it."),
		entry(s+"6.9", Applied, "Flag fall",
			"A player who has not completed the prescribed moves in his time loses, unless his opponent could not mate by any series of legal moves, when it is a draw.",
			"With a time control a fallen flag ends the game (fide2023:6.9): lost, or drawn when the opponent has not the men to mate. The end of a replay's input is no flag."),
		entry(s+"6.11", Partial, "Pausing the clock",
			"The arbiter pauses the clock when the game must be interrupted; a player may pause it only to call the arbiter, who decides when play resumes and penalises a pause without reason.",
			"With a time control both clocks stop while an irregularity waits for its ruling and restart for the side to move after it. Players have no pause input."),
		entry(s+"7.1", Applied, "Clock times after a restored position",
			"When an irregularity makes the men go back to an earlier position the arbiter sets the clocks as he judges best, and the move counter if need be.",
			"With a time control, when a ruling takes moves back the time used stays used (the arbiter's right not to change the times) and the clocks' move count is brought back to the game's, so time a retracted move earned at a time control is taken away again."),
		entry(s+"7.2.1", Applied, "Wrong initial position",
			"If the men are found to have started in a wrong position, the game is cancelled and a new one played.",
			"The claim button, in a game that began from a wrong set-up, raises misplaced-setup (fide2023:7.2.1) at any time and the arbiter annuls the game (annul). Men swapped on their squares cannot be seen: the claim is checked against the starting position boardd was given."),
		entry(s+"7.2.2", Outside, "Board placed wrongly",
			"If the board was placed wrongly, play goes on with the position moved to a correctly placed board.",
			calibrated),
		entry(s+"7.3", Outside, "Colours reversed",
			"A game begun with colours reversed is replayed with the right colours if fewer than ten moves each have been made, and goes on otherwise.",
			noSeats),
		entry(s+"7.4.1", Partial, "Displaced men",
			"A player who displaces men puts them right on his own time.",
			"A board out of step with the game is reported as a mismatch and the LEDs show the squares to fix; nothing counts as a move until the board matches. Men swapped on occupied squares cannot be seen."),
		entry(s+"7.4.2", Outside, "Calling the arbiter",
			"If need be either player pauses the clock and asks the arbiter's help.",
			"The arbiter's console shows the board and its mismatch; the clocks are not paused for it."),
		entry(s+"7.4.3", Outside, "Penalty for displacing",
			"The arbiter may penalise the player who displaced the men.",
			"An arbiter's judgement; boardd only reports the mismatch."),
		entry(s+"7.5.1", Applied, "Illegal move",
			"An illegal move is complete once the clock is pressed; the position before it is reinstated (or the last one known), and 4.3 and 4.7 bind the move that replaces it.",
			"false-move, own-capture, moved-into-check, moved-adverse-man and successive-moves (fide2023:7.5.1): the arbiter restores the position (restore) at once and the board is guided back; the man moved must then be moved (fide2023:4.3.1) where it can be. With a time control the illegal move is complete at the clock press (6.2.1), without one when the hand leaves it. After an adverse man was moved, the offender is not held to take it (4.3.2). A man moved out of turn in a shape it could move is read as successive-moves by its owner, and the illegal move is counted against him: a board cannot tell whose hand moved it."),
		entry(s+"7.5.2", Applied, "Promotion left unfinished",
			"A pawn moved to the last rank and the clock pressed without the exchange is an illegal move; the pawn becomes a queen.",
			"A promotion completed without the promote button raises bad-promotion (fide2023:7.5.2): the arbiter rules stand, the pawn becomes a queen, and the move counts as illegal (fide2023:7.5.5). A Hall board cannot see whether a piece replaced the pawn, so a promotion made on the board but not named is penalised."),
		entry(s+"7.5.3", Applied, "Clock pressed without a move",
			"Pressing the clock without moving is treated and penalised as an illegal move.",
			"With a time control, the clock pressed by the player to move who has made no move raises clock-without-move (fide2023:7.5.3), ruled by the arbiter and counted as an illegal move (fide2023:7.5.5: time to the opponent, the second loses)."),
		entry(s+"7.5.4", Outside, "Two hands",
			"A move made with two hands, with the clock pressed, is treated and penalised as an illegal move.",
			"A Hall-sensor board sees men, not hands."),
		entry(s+"7.5.5", Applied, "Penalty for illegal moves",
			"For a player's first completed illegal move the opponent gets two extra minutes (one in rapid and blitz); a second loses the game, unless the opponent could not mate by any series of legal moves, when it is drawn.",
			"boardd counts each player's completed illegal moves; the first gives the opponent two minutes when a time control runs (one in rapid and blitz), the second ends the game (fide2023:7.5.5), won by the opponent or drawn when the opponent has not the men to mate."),
		entry(s+"7.6", Partial, "Displaced men found later",
			"Men found off their correct squares during the game put the game back to the position before the irregularity, or the last one known.",
			"The board is compared with the game after every change: men off their squares are a mismatch the LEDs ask to fix before play goes on. Men swapped on occupied squares cannot be seen."),
		entry(s+"9.1.1", Outside, "Draw offers restricted",
			"The event's regulations may forbid draw offers or agreements, before some move or at all, without the arbiter's consent.",
			"Event regulations are the organisers'; boardd has no draw-offer input."),
		entry(s+"9.1.2.1", Outside, "Offering a draw",
			"Where draws may be agreed, the offer is made after moving and before pressing the clock, unconditionally; it stands until accepted, declined, or the opponent touches a man to move.",
			"boardd has no draw-offer input; an agreed draw is declared by the arbiter (arbiter action result 1/2-1/2)."),
		entry(s+"9.1.2.2", Outside, "Recording the offer",
			"Each player marks the offer on his scoresheet.",
			"boardd's PGN does not mark draw offers."),
		entry(s+"9.1.2.3", Partial, "A claim is an offer",
			"A draw claim under 9.2 or 9.3 counts as a draw offer.",
			"A claim boardd finds correct ends the game at once; an incorrect one does nothing, so the opponent cannot accept it as an offer."),
		entry(s+"9.2", Applied, "Threefold repetition on a claim",
			"The player having the move may claim a draw when the same position is about to appear, or has just appeared, for at least the third time.",
			"The claim button when the position on the board has stood three times ends the game drawn (fide2023:9.2); no claim, no draw. boardd accepts the claim from either player and ignores an incorrect one (see 9.5.3)."),
		entry(s+"9.2.1", Applied, "The claim",
			"The claim is made by the player having the move, on one of the two occasions of 9.2.1.1 and 9.2.1.2.",
			"See 9.2."),
		entry(s+"9.2.1.1", Planned, "Claim on a move not yet made",
			"The claimant writes his intended move, which then cannot change, and declares it to the arbiter.",
			"planned: a claim on a move not yet made on the board is not supported; make the move and let the opponent claim, or claim after the opponent's repeating move."),
		entry(s+"9.2.1.2", Applied, "Claim on the position just reached",
			"The position has just appeared and the claimant has the move.",
			"The claim button (fide2023:9.2)."),
		entry(s+"9.2.2", Applied, "Same position",
			"Positions are the same when the same side is to move, the same men stand on the same squares and the same moves are possible; a lost en passant capture makes them differ, and castling rights go only when the king or rook moves.",
			"boardd compares the men, the side to move, the castling rights and an en passant capture actually available."),
		entry(s+"9.3", Applied, "Fifty moves on a claim",
			"The player having the move may claim a draw when the last fifty moves each, or those completed by his intended move, had no pawn move and no capture.",
			"The claim button when the last fifty moves each were without capture or pawn move ends the game drawn (fide2023:9.3). boardd accepts the claim from either player and does not support claiming on an intended move."),
		entry(s+"9.3.1", Planned, "Fifty moves with an intended move",
			"The claimant writes and declares the move that will complete the fifty moves.",
			"planned: a claim on a move not yet made on the board is not supported."),
		entry(s+"9.3.2", Applied, "Fifty moves completed",
			"The last fifty moves each have been made without any pawn move or capture.",
			"The claim button (fide2023:9.3)."),
		entry(s+"9.4", Planned, "Touching ends the claim",
			"A player who touches a man to move or take it loses the right to claim under 9.2 or 9.3 on that move.",
			"planned: a claim pressed after the claimant has lifted a man is still accepted."),
		entry(s+"9.5", Applied, "Deciding a claim",
			"How a claim under 9.2 or 9.3 is made and decided: 9.5.1-9.5.3.",
			"See 9.5.1-9.5.3."),
		entry(s+"9.5.1", Planned, "Clock paused for a claim",
			"The claimant or the arbiter pauses the clock, and the claim cannot be withdrawn.",
			"planned: the clocks are not held for a claim; a claim cannot be withdrawn in boardd anyway, a correct one ending the game at once."),
		entry(s+"9.5.2", Applied, "Correct claim",
			"A correct claim draws the game at once.",
			"The result line follows the claim at once (fide2023:9.2 or 9.3)."),
		entry(s+"9.5.3", Applied, "Incorrect claim",
			"An incorrect claim gives the opponent two extra minutes (one in rapid and blitz) and play goes on, an intended move being played under Articles 3 and 4.",
			"A claim by the player on move that neither repetition nor the fifty moves bear out is refused with a ruling (option refused, fide2023:9.5.3); with a time control the opponent gets two minutes (one in rapid and blitz)."),
		entry(s+"9.6", Applied, "Automatic draws",
			"The game is drawn without a claim when 9.6.1 or 9.6.2 happens.",
			"See 9.6.1 and 9.6.2."),
		entry(s+"9.6.1", Applied, "Fivefold repetition",
			"The same position has appeared at least five times.",
			"boardd ends the game drawn as the position stands for the fifth time (fide2023:9.6.1)."),
		entry(s+"9.6.2", Applied, "Seventy-five moves",
			"Seventy-five moves each have been made without a pawn move or a capture; a mate on the last move takes precedence.",
			"boardd ends the game drawn after the seventy-fifth such move each (fide2023:9.6.2); a mate on that move is found first."),
		entry(s+"9.7", Applied, "No mate possible",
			"A position from which no series of legal moves can lead to mate ends the game drawn at once.",
			"Ruled as the dead position of fide2023:5.2.2 (boardd cites that article): neither side has the men to mate."),
	}
}
