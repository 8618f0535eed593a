package lawset

import (
	"fmt"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// Sarratt's laws: the twenty-five laws of J. H. Sarratt's Treatise on the
// Game of Chess (1808).

func sarratt1808() *LawSet {
	const s = "sarratt1808:"
	return &LawSet{
		ID: "sarratt1808", Name: "Sarratt's Laws of Chess (1808)", Year: 1808,
		Summary:              "The twenty-five laws of J. H. Sarratt's Treatise on the Game of Chess.",
		RookFirstCastling:    true,
		AdverseTouchLaw:      s + "9",
		UnmovableKingPenalty: true, UnmovableOnlyWhenPinned: true,
		IntoCheckByMovableMan: &Rule{Law: s + "13", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptMoveTouched, report.OptKing}},
		LapseOnTouch:          true, LapseLaw: s + "21", AnnouncedTouchLapses: true,
		StalemateLaw:     s + "24",
		Repetition:       NoRepetition,
		Count:            &CountRule{Law: s + "23", Plies: 100, OnNotice: true},
		UnnamedPromotion: PromoteQueen, PromotionLaw: s + "22",
		CheckLaw:                  s + "18",
		LateCheck:                 Rule{Law: s + "18", Chooser: Offended, Options: []report.OptionID{report.OptRecall, report.OptStand}},
		NoticedCheck:              &Rule{Law: s + "19", Chooser: Offended, Options: []report.OptionID{report.OptRecall, report.OptStand}},
		UncalledCheckMayBeIgnored: true,
		FalseCheckFreesTouch:      true,
		FalseCheckLaw:             s + "20",
		Setup:                     SetupRule{Law: s + "2", MissingLaw: s + "3", MissingChooser: ByArbiter, Window: BeforeFourthMoveEach},
		Rules: map[report.Kind]Rule{
			report.KindTouchMove:      {Law: s + "7", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptMoveTouched, report.OptTakeTouched, report.OptKing}},
			report.KindUnmovable:      {Law: s + "17", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptStand}},
			report.KindUncapturable:   {Law: s + "9", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptStand}},
			report.KindFalseMove:      {Law: s + "13", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptMoveTouched, report.OptKing}},
			report.KindFalseCapture:   {Law: s + "11", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptTakeTouched, report.OptMoveTouched}},
			report.KindOwnCapture:     {Law: s + "12", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptMoveTouched, report.OptMoveTaken}},
			report.KindMovedIntoCheck: {Law: s + "17", Chooser: Offended, Options: []report.OptionID{report.OptKing}},
			report.KindFalseCastling:  {Law: s + "16", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptRook}},
			report.KindMovedAdverse:   {Law: s + "10", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptTakeTouched, report.OptReplace}},
			report.KindSuccessive:     {Law: s + "14", Chooser: Offended, Options: []report.OptionID{report.OptKeepFirst, report.OptKeepAll}},
		},
		Flag: func(flagged board.Color, _ bool) Ruling {
			return Ruling{winFor(flagged.Other()), fmt.Sprintf("%s exceeded the time limit the players agreed; the code says nothing of time, so no law is cited", name(flagged)), ""}
		},
		Laws: sarrattLaws(),
	}
}

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
			"A man missing from the squares boardd expects is shown on the LEDs before the first move, and nothing counts as a move until the board matches. In a game begun from a set-up lacking men, the claim button before each side's fourth move raises misplaced-setup (sarratt1808:3) and the arbiter annuls the game (option annul); later the claim does nothing and the game goes on without them."),
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
			liftIsTouch+" A move made with another man raises touch-move (sarratt1808:7); the adversary chooses stand (let it pass) or move-touched (the move is taken back and the touched man must move); when several own men were touched, also move-touched-<square> for each other one, the adversary electing which must move or letting the man played stand (stand: it was touched too, so electing it is an election and is offered even with --tournament); an adverse man touched too that can be taken and was not adds take-touched (sarratt1808:9: the move is taken back and he must take it). A man lifted and set back on its square without j'adoube binds like any touch. The claim lapses as sarratt1808:21 says."),
		entry(s+"8", Applied, "Completing a move",
			"While a player holds a man he may set it where he likes; once he has let go, the move cannot be taken back.",
			handLeaves),
		entry(s+"9", Applied, "Adverse man touched",
			"Touching an adversary's man without j'adoube obliges the player to take it; if it cannot be taken he must move his king; if the king cannot move either, there is no penalty.",
			"A touched adverse man not taken raises touch-move (sarratt1808:9) with stand or take-touched. A pawn that can be taken only en passant can be taken: take-touched is offered for it, naming the pawn and the pawns that can take it. An adverse man lifted and set back that cannot be taken raises touched-uncapturable (sarratt1808:9) as soon as it is released, with king (the squares the king may go to) or stand; nothing is raised when the king cannot move."),
		entry(s+"10", Applied, "Adverse man moved",
			"A player who moves one of his adversary's men by mistake may be made to take it (if he can), to put it back, or to leave it where he played it.",
			"moved-adverse-man (sarratt1808:10), chosen by the adversary: stand, take-touched (back, then take that man) or replace (the man is put back and the offender moves freely); options that cannot be carried out are left off."+adverseNotOutOfTurn),
		entry(s+"11", Applied, "False capture",
			"A capture with a man that cannot make it may be turned into a capture of the same man by another of his men, or into a move of the man that tried, at the adversary's choice.",
			"A false move onto an adverse man raises false-move (sarratt1808:11): stand, take-touched (the adverse man must be taken by some man) or move-touched (the man that tried must move)."),
		entry(s+"12", Applied, "Own man taken",
			"Taking one's own man lets the adversary make the player move either of the two men.",
			"own-capture (sarratt1808:12), chosen by the adversary: stand, move-touched (the man that took) or move-taken (the own man taken); the move is taken back first."),
		entry(s+"13", Applied, "False move",
			"After a false move the adversary may leave it, have the man played to a lawful square, or have it put back and the king moved instead.",
			"false-move (sarratt1808:13), chosen by the adversary: stand, move-touched or king, and move-touched-<square> for each other man of his the offender touched that turn without j'adoube and that can move (sarratt1808:7 binds it too); where none of these penalties can be exacted, stand or recall (revoked without penalty). A move that leaves the mover's king attacked, made with a man that had lawful moves, is a false move too: moved-into-check (sarratt1808:13), stand, move-touched or king; stand leaves the king attacked, which the adversary may not take (boardd never takes a king), so the offender must then parry. Only a man that could not move without exposing its king is ruled under sarratt1808:17."),
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
			"A man lifted and set back that has no legal move raises touched-unmovable (sarratt1808:17) as soon as it is released, when the man could move but for exposing its king: king or stand, chosen by the adversary; nothing when the king cannot move. A man merely hemmed in by its own men binds nobody: no law gives a penalty for it. A completed move that leaves the mover's king in check, made with a man that had no lawful move, raises moved-into-check (sarratt1808:17) with king (recall when the king cannot move: no penalty); one made with a man that could move is a false move (sarratt1808:13)."),
		entry(s+"18", Applied, "Check must be announced",
			"Check must be said aloud; an unannounced check may be ignored, and if the checker says check on a later move the checked player may take back his last move and parry.",
			"The check button announces a check: pressed by the checker during his move or before the adversary replies. A king in an unannounced check may stay in it (the move stands). When the checker presses check later, unannounced-check (sarratt1808:18) is raised, chosen by the checked player: recall (the moves since the check are taken back and the check must be parried) or stand."),
		entry(s+"19", Applied, "Check unnoticed for several moves",
			"If a king has stood in check for two or more moves and nobody can tell how, the checked player may, on noticing it, take back his last move and parry.",
			"The checked player notices it by pressing the claim button in his turn, when his king stands in a check nobody called that was given before his own last move: noticed-check (sarratt1808:19) is raised, chosen by him: recall (his last move and the reply after it are taken back, and he must then cover the check or move the king) or stand (his moves remain, and he parries now). From then on the check counts as called. The law asks that nobody can tell how the check came about; boardd's record always could, but the players did not, so boardd reads the law as covering every check left uncalled that long. A check the checker calls late is ruled under sarratt1808:18."),
		entry(s+"20", Applied, "False announcement of check",
			"A player who moved his king or touched a man to meet a check that was announced but not given may take that move back, provided the announcer has not made his next move.",
			"The check button pressed with a move that gives no check, followed by the adversary's move, raises false-check (sarratt1808:20), chosen by the misled player: recall or stand; the right lapses when the announcer moves. In his turn right after the false announcement the misled player's touches bind nobody: a man touched, not moved, raises no touch-move."),
		entry(s+"21", Applied, "Claims lapse once the claimant plays",
			"A player who has moved, or even touched a man, before noticing his adversary's false move or other error can no longer have the penalty.",
			"Under sarratt1808 a pending choice lapses as soon as the offended player lifts a man in his turn: a ruling line records stand by lapse (sarratt1808:21). boardd reads 'or even touched a piece' as absolute: an adjustment announced with the j'adoube button by the offended player in his turn ends the claim too (j'adoube spares the man from law 7, not the claim from law 21), and a later choice is refused."),
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
