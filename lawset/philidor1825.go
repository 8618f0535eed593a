package lawset

import (
	"fmt"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// Philidor's laws: the seventeen laws adopted by the London chess club
// and printed in Philidor's Studies of Chess (1825).

func philidor1825() *LawSet {
	const s = "philidor1825:"
	return &LawSet{
		ID: "philidor1825", Name: "Philidor's Laws of Chess (1825)", Year: 1825,
		Summary:              "The seventeen laws adopted by the London chess club, as printed in Philidor's Studies of Chess.",
		RookFirstCastling:    true,
		AdverseTouchLaw:      s + "VI",
		UnmovableKingPenalty: true, UnmovableOnlyWhenPinned: true,
		SuccessiveRevokesSecondOnly: true,
		IntoCheckByMovableMan:       &Rule{Law: s + "VIII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptKing}},
		LapseLaw:                    s + "VIII",
		StalemateWins:               true, StalemateLaw: s + "XVI",
		Repetition:       NoRepetition,
		Count:            &CountRule{Law: s + "XVII", Plies: 100, OnNotice: true},
		UnnamedPromotion: PromoteQueen, PromotionLaw: s + "IX",
		CheckLaw:                  s + "XIII",
		LateCheck:                 Rule{Law: s + "XIII", Chooser: ByArbiter, Options: []report.OptionID{report.OptRecall}},
		UncalledCheckMayBeIgnored: true,
		FalseCheckFreesTouch:      true,
		FalseCheckLaw:             s + "XIV",
		Setup: SetupRule{Law: s + "I", MissingLaw: s + "III", MissingChooser: Offended, MissingAnyTime: true,
			MissingOptions: []report.OptionID{report.OptAnnul, report.OptPlaceForgotten}, Window: BeforeFourthMoveEach},
		Rules: map[report.Kind]Rule{
			report.KindTouchMove:      {Law: s + "V", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptMoveTouched, report.OptTakeTouched, report.OptKing}},
			report.KindUnmovable:      {Law: s + "XV", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptStand}},
			report.KindUncapturable:   {Law: s + "VI", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptStand}},
			report.KindFalseMove:      {Law: s + "VIII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptKing}},
			report.KindOwnCapture:     {Law: s + "VIII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptKing}},
			report.KindMovedIntoCheck: {Law: s + "XV", Chooser: Offended, Options: []report.OptionID{report.OptKing}},
			report.KindFalseCastling:  {Law: s + "XII", Chooser: Offender, Options: []report.OptionID{report.OptRook, report.OptKing}},
			report.KindMovedAdverse:   {Law: s + "VI", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptTakeTouched, report.OptKing}, KingFallback: true},
			report.KindSuccessive:     {Law: s + "VIII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptKing}},
		},
		Flag: func(flagged board.Color, _ bool) Ruling {
			return Ruling{winFor(flagged.Other()), fmt.Sprintf("%s exceeded the time limit the players agreed; the code says nothing of time, so no law is cited", name(flagged)), ""}
		},
		Laws: philidorLaws(),
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
			"A man missing from the squares boardd expects is shown on the LEDs before the first move. In a game begun from a set-up lacking a man, the claim button at any time (the law sets no limit) raises misplaced-setup (philidor1825:III), chosen by the forgetter's adversary: annul (the game begun afresh) or place-forgotten (the man set on its home square, offered while that square is free; a rook regains its castling right only while its king has never moved); play resumes with the same side to move once the board matches. The PGN cannot show a man appearing: it is written on from the position with the man set (docs/pgn.md)."),
		entry(s+"IV", Partial, "Odds forgotten",
			"If odds were agreed but the man was not removed, the player who suffered by the mistake chooses to go on or to begin again.",
			"With --odds boardd sets up the odds position itself and the LEDs ask for the given man to come off before play, so the mistake cannot happen on a boardd board; no claim is offered."),
		entry(s+"V", Applied, "Touched man must be played",
			"A man touched must be played unless the player said j'adoube; a man knocked over or displaced by accident may be put back by its owner.",
			liftIsTouch+" A move made with another man raises touch-move (philidor1825:V): the adversary chooses stand or move-touched, and move-touched-<square> for each other own man touched that can move: he elects which must be played, or lets the man played stand. The code gives no time within which the claim must be made: boardd lets it lapse when the adversary completes his own next move (stand by lapse, citing philidor1825:VIII), its own practice, not the code's; an adverse man touched too that can be taken and was not adds take-touched (philidor1825:VI). Beyond a bump boardd cannot tell an accident from a touch: a man lifted and set back without j'adoube binds."),
		entry(s+"VI", Applied, "Adverse man touched",
			"Touching an adversary's man without j'adoube lets him oblige the player to take it; a man that cannot be taken obliges a king move, if the king can move.",
			"A touched adverse man not taken raises touch-move (philidor1825:VI): stand or take-touched. A pawn that can be taken only en passant can be taken: take-touched is offered for it, naming the pawn and the pawns that can take it. One lifted and set back that cannot be taken raises touched-uncapturable (philidor1825:VI) on release: king or stand. An adverse man moved raises moved-adverse-man (philidor1825:VI): stand or take-touched, and king only when the man cannot be taken."+adverseNotOutOfTurn),
		entry(s+"VII", Applied, "Completing a move",
			"While the player keeps hold of a man he may play it anywhere; once let go it cannot be taken up again to go elsewhere.",
			handLeaves),
		entry(s+"VIII", Applied, "False moves and their limit",
			"A false move obliges a king move as in VI; it cannot be recalled after the adversary's next move, and then stands as if it were lawful.",
			"false-move and own-capture (philidor1825:VIII): the adversary chooses stand or king; where the king cannot move, stand or recall (the false move revoked without penalty, as VIII still allows before the adversary's next move). A move leaving the mover's king attacked, made with a man that had lawful moves, is a false move too: moved-into-check (philidor1825:VIII), stand or king. The code has no law for two moves running: boardd reads the second as a false move under this law, successive-moves (philidor1825:VIII), stand or king (the second move revoked, the first standing, and the king played at the offender's next turn; whether the king can move is judged in the position the first move made, the offender to move, his adversary's reply not yet known, so a king freed by the first move, 1.e4 freeing e2, is offered). A pending choice lapses when the adversary completes his own next move: a ruling line records stand by lapse (philidor1825:VIII); so does a claim under V and VI, though the code sets no limit for those: that lapse is boardd's practice, not the code's, which borrows VIII's limit, the nearest the code comes, and cites VIII for it."),
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
			"The check button pressed with a move that gives no check, followed by the adversary's move, raises false-check (philidor1825:XIV), chosen by the misled player: recall or stand; the right lapses when the announcer completes his next move. In his turn right after the false warning the misled player's touches bind nobody: a man touched, not moved, raises no touch-move."),
		entry(s+"XV", Applied, "Touched man pinned",
			"A man touched that cannot be played without exposing the king obliges a king move; if the king cannot move, there is no penalty.",
			"A man lifted and set back that could move but for exposing its king raises touched-unmovable (philidor1825:XV) on release: king or stand, chosen by the adversary; nothing when the king cannot move. A man merely hemmed in by its own men binds nobody. A completed move leaving the mover's king in check, made with a man that had no lawful move, raises moved-into-check (philidor1825:XV) with king (recall when the king cannot move); one made with a man that could move is a false move (philidor1825:VIII)."),
		entry(s+"XVI", Applied, "Stalemate",
			"A king not in check whose side has no move is stalemated; under the English rule the stalemated player wins (the editor notes France counts it a draw).",
			"A stalemate ends the game as a win for the stalemated player (philidor1825:XVI)."),
		entry(s+"XVII", Applied, "Fifty moves for difficult mates",
			"When a player seems not to know how to force a difficult mate, his adversary may ask that fifty moves each be fixed; without mate by then the game is drawn.",
			countOnClaim),
	}
}
