package lawset

import (
	"fmt"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// The New York Chess Club code: the eighteen laws the club sanctioned.

func nycc() *LawSet {
	const s = "nycc:"
	return &LawSet{
		ID: "nycc", Name: "The New York Chess Club code", Year: 1850,
		Summary:                "The eighteen laws sanctioned by the New York Chess Club.",
		RookFirstCastling:      true,
		KingForSeveralTouched:  true,
		AdverseTouchLaw:        s + "X",
		UnmovableKingPenalty:   true,
		DiscoveredCheckCovered: true,
		PromotionOnWrongSquare: &Rule{Law: s + "XII", Chooser: ByArbiter, Options: []report.OptionID{report.OptKing}},
		KingPenaltyNoCastling:  true,
		AnnulWhenNotExacted:    []report.Kind{report.KindMovedIntoCheck, report.KindSuccessive},
		LapseLaw:               s + "XI",
		StalemateLaw:           s + "V", MateLaw: s + "V",
		Repetition: ContinualRepetition, RepetitionLaw: s + "V",
		Count:            &CountRule{Law: s + "VI", Plies: 120, OnNotice: true},
		InsufficientDraw: true, InsufficientLaw: s + "V", InsufficientReason: "insufficient force to mate",
		UnnamedPromotion: PromoteQueen, PromotionLaw: s + "III",
		CheckLaw:                    s + "IV",
		LateCheck:                   Rule{Law: s + "IV", Chooser: ByArbiter, Options: []report.OptionID{report.OptRecall}},
		UncalledCheckMayBeIgnored:   true,
		TouchFreeAfterUncalledCheck: true,
		FalseCheckLaw:               s + "IV",
		FalseCheckLapsesOnTouch:     true,
		Setup:                       SetupRule{Law: s + "IX", MissingLaw: s + "IX", MissingChooser: ByArbiter, Window: BeforeFourthMoveEach},
		Rules: map[report.Kind]Rule{
			report.KindTouchMove:      {Law: s + "X", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptMoveTouched, report.OptTakeTouched, report.OptKing}},
			report.KindUnmovable:      {Law: s + "XI", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptStand}},
			report.KindUncapturable:   {Law: s + "XI", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptStand}},
			report.KindFalseMove:      {Law: s + "XII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptRecall, report.OptMoveTouched, report.OptKing}},
			report.KindOwnCapture:     {Law: s + "XII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptRecall, report.OptMoveTouched, report.OptKing}},
			report.KindMovedAdverse:   {Law: s + "XII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptRecall, report.OptMoveTouched, report.OptKing}},
			report.KindMovedIntoCheck: {Law: s + "XIII", Chooser: Offended, Options: []report.OptionID{report.OptKing}},
			report.KindFalseCastling:  {Law: s + "XII", Chooser: Offended, Options: []report.OptionID{report.OptStand, report.OptCastle, report.OptKing, report.OptRook}},
			report.KindSuccessive:     {Law: s + "XIV", Chooser: Offended, Options: []report.OptionID{report.OptKeepAll, report.OptKeepFirst, report.OptKeepSecond, report.OptRecall, report.OptMoveTouched, report.OptKing}},
		},
		// nycc:VIII: thinking time is unlimited unless the players agree a
		// limit and its penalty; a time control given to boardd is that
		// agreement, and overstepping it loses.
		Flag: func(flagged board.Color, _ bool) Ruling {
			return Ruling{winFor(flagged.Other()), fmt.Sprintf("%s exceeded the time limit the players agreed", name(flagged)), s + "VIII"}
		},
		Laws: nyccLaws(),
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
			"The claim button before each side's fourth move, in a game that began from a wrong set-up or lacking a man, raises misplaced-setup (nycc:IX) and the arbiter annuls the game (option annul). Men swapped on their squares cannot be seen: the claim is checked against the starting position boardd was given. boardd itself keeps the turn, so nobody can move first out of turn without a successive-moves ruling. planned: the odds clauses (man not removed, odds moves neglected)."),
		entry(s+"X", Applied, "Touched man moved or taken",
			"A man touched must be moved and an adverse man touched must be taken, unless j'adoube was said; a man knocked over may be set back silently; in castling either man may go first; a move is complete when the hand leaves it; nobody is excused by his adversary's own lapses.",
			liftIsTouch+" A move made with another man raises touch-move (nycc:X): the adversary chooses stand, move-touched or take-touched; when several men were touched, also move-touched-<square> for each other own man that binds, and king where the king can move (nycc:XI). Beyond a bump boardd cannot tell an accident from a touch: a man lifted and set back without j'adoube binds. Rook-first castling is castling. "+handLeaves),
		entry(s+"XI", Applied, "Several men touched, or one that cannot move",
			"If several men are touched the adversary picks which must move or be taken, or may require a king move; a touched man that cannot move or be taken obliges a king move; penalties must be exacted before the adversary's own next move; none where no lawful penalty exists; a king moved as a penalty may not castle.",
			"A man lifted and set back that cannot be moved or taken raises touched-unmovable or touched-uncapturable (nycc:XI) on release: king (without castling) or stand; nothing when the king cannot move. A pending choice lapses when the adversary completes his own next move: a ruling line records stand by lapse (nycc:XI). When several men were touched the touch-move (nycc:X) offers move-touched for the first that binds and move-touched-<square> for each other (move-touched-b1: the man on b1 must move), and king where the king can move: the adversary picks, and may pick the man played, which was touched too (stand: offered even with --tournament, the election being no waiver); an adverse man touched too that can be taken and was not adds take-touched, taken by any man that can (en passant included: a pawn that can be taken only so can be taken)."),
		entry(s+"XII", Applied, "False moves",
			"After a capture of one's own man, a move of an adverse man or any unlawful move the adversary may let it stand, allow it to be recalled, or require the touched man to move lawfully or the king to move; after a false castling he may let it stand, allow correct castling, or have the king or rook moved; a promotion to an adverse piece or on a wrong square is recalled and the king must move.",
			"false-move, own-capture and moved-adverse-man (nycc:XII), chosen by the adversary: stand, recall, move-touched or king, and move-touched-<square> for each other man of his the offender touched that turn without j'adoube and that can move (nycc:X binds it too). false-castling (nycc:XII): stand, castle, king or rook. A pawn played to its last rank onto a square no pawn move reaches (its new man set on a wrong square) raises bad-promotion (nycc:XII): the arbiter rules king at once (the move recalled, the pawn replaced, the king moved without castling; recall when the king cannot move). A promotion to a piece of the wrong colour cannot be seen by a Hall board. Options that cannot be carried out are left off."+adverseNotOutOfTurn),
		entry(s+"XIII", Applied, "Moving into check",
			"A player who puts his own king in check must be told at once and must move the king elsewhere, or the game is annulled unless both agree to go on; after a discovered check that cannot stay covered the king must move.",
			"moved-into-check (nycc:XIII) is raised as soon as the move completes, so the notice is immediate; the adversary's choice is the notification: king (the move taken back and the king moved, without castling). When the man moved discovered the check and can still move so that it stays covered, the option is move-touched instead (its lawful moves are exactly those), king only when it cannot. If the adversary plays on without exacting it, the game is annulled: a ruling line records annul by lapse (nycc:XIII) and the board is guided to the initial position for the game begun anew. boardd cannot hear the players agree to go on instead: the arbiter may then set the position up again from the console (new-game with its FEN). Under an unannounced check (nycc:IV) the king may stay in check."),
		entry(s+"XIV", Applied, "Successive moves",
			"If one player moves twice or more in succession the adversary may keep all or any one of the moves, or have all recalled and choose which touched man moves or require a king move; a man played onto a square of its own side may be made to move lawfully or the king to move; a penalty not exacted at once annuls the game unless the players agree.",
			"successive-moves (nycc:XIV), chosen by the adversary: keep-all, keep-first or keep-second (any one of them: the other taken back; keep-second only where the second move is lawful without the first), recall (both moves taken back, the offender then moves freely), move-touched-<square> (both taken back, and the man that stood on that square, one of the men the two moves touched, must move: one option for each that can) or king. A penalty not exacted before the adversary's own next move annuls the game (a ruling line records annul by lapse, nycc:XIV); boardd cannot hear the players agree to go on. A third move cannot follow: the second raises the irregularity. A move onto an own man is ruled as own-capture (nycc:XII)."),
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
