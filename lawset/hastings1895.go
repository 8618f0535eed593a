package lawset

import (
	"fmt"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// Hastings 1895: the regulations of the International Tournament and the
// thirteen rules of the Revised International Code it played under.

func hastings1895() *LawSet {
	const s = "hastings1895:"
	return &LawSet{
		ID: "hastings1895", Name: "Hastings 1895: tournament regulations and the Revised International Code", Year: 1895,
		Summary:               "The regulations of the Hastings International Tournament of 1895 and the thirteen rules of the Revised International Code it played under.",
		AdverseTouchLaw:       s + "IV",
		UnmovableKingPenalty:  true,
		KingPenaltyNoCastling: true,
		NoWaiver:              true,
		LapseLaw:              s + "IV",
		Repetition:            ThreefoldAutomatic, RepetitionLaw: s + "VII", RepetitionByPlacement: true,
		Count:            &CountRule{Law: s + "VIII", Plies: 100, OnNotice: true, ResetByPawn: true},
		UnnamedPromotion: PromoteIncomplete, PromotionLaw: s + "X",
		CheckLaw:                    s + "VI",
		LateCheck:                   Rule{Law: s + "VI", Chooser: ByArbiter, Options: []report.OptionID{report.OptRecall}},
		UncalledCheckMayBeIgnored:   true,
		TouchFreeAfterUncalledCheck: true,
		Setup:                       SetupRule{Law: s + "I", MissingLaw: s + "I", MissingChooser: ByArbiter, Window: BeforeClaimantsFourthMove},
		// IV: the touched man (own, or adverse, taken) is the penalty; the
		// king only where none can be exacted.
		Rules: map[report.Kind]Rule{
			report.KindTouchMove:      {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptMoveTouched, report.OptTakeTouched, report.OptKing}, KingFallback: true},
			report.KindUnmovable:      {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptKing}},
			report.KindUncapturable:   {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptKing}},
			report.KindFalseMove:      {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptMoveTouched, report.OptKing}, KingFallback: true},
			report.KindFalseCapture:   {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptMoveTouched, report.OptTakeTouched, report.OptKing}, KingFallback: true},
			report.KindOwnCapture:     {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptMoveTouched, report.OptMoveTaken, report.OptKing}, KingFallback: true},
			report.KindMovedAdverse:   {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptTakeTouched, report.OptKing}, KingFallback: true},
			report.KindMovedIntoCheck: {Law: s + "IV", Chooser: Offended, Options: []report.OptionID{report.OptMoveTouched, report.OptKing}, KingFallback: true},
			report.KindFalseCastling:  {Law: s + "IX", Chooser: Offended, Options: []report.OptionID{report.OptKing, report.OptRook}},
			report.KindSuccessive:     {Law: s + "differences", Chooser: ByArbiter, Options: []report.OptionID{report.OptKeepFirst}},
			report.KindBadPromotion:   {Law: s + "X", Chooser: Offender, Options: []report.OptionID{report.OptPromoteQ, report.OptPromoteR, report.OptPromoteB, report.OptPromoteN}},
		},

		// The regulations' Time Limit: a player who exceeds it forfeits.
		Flag: func(flagged board.Color, _ bool) Ruling {
			return Ruling{winFor(flagged.Other()), fmt.Sprintf("%s exceeded the time limit and forfeits the game", name(flagged)), s + "time-limit"}
		},
		// IV N.B.: the chooser's own time runs while he considers.
		DuringChoice: RunChooser, DuringChoiceLaw: s + "IV",
		Laws: hastingsLaws(),
	}
}

func hastingsLaws() []Law {
	const s = "hastings1895:"
	return []Law{
		entry(s+"I", Applied, "Misplaced board or men",
			"A player who notices before his fourth move that the board or men were placed wrongly may demand that the game begin again.",
			"The claim button before the claimant's own fourth move, in a game that began from a wrong set-up, raises misplaced-setup (hastings1895:I) and the arbiter annuls the game (option annul). Men swapped on their squares cannot be seen: the claim is checked against the starting position boardd was given."),
		entry(s+"II", Outside, "First move and colour",
			"Lots decide the first move and colour before the first game; in a match the first move alternates.",
			noSeats),
		entry(s+"III", Applied, "J'adoube",
			"A player who wants to adjust a man must say j'adoube before touching it, or rule IV applies.",
			liftIsTouch),
		entry(s+"IV", Applied, "Touched men",
			"An own man touched must be moved and an adverse man taken if it can be; with several touched the adversary chooses which; where that cannot be exacted the king must move, without castling, and if it cannot, no penalty; the adversary must claim before his own next move, on his own time.",
			"touch-move (hastings1895:IV): one option per touched man that binds, move-touched (and move-touched-<square> for each other own man) or take-touched, both offered when own and adverse men were touched and neither honoured (a pawn that can be taken only en passant can be taken: take-touched); touched-unmovable and touched-uncapturable (hastings1895:IV): king, without castling; nothing when the king cannot move. boardd also rules false moves under this rule, the code having none for them, the man moved and the man it took counting as touched, and every other own man touched that turn binding as well (move-touched-<square> for each that can move): false-move with move-touched, or take-touched when it took a man that can be taken; own-capture with move-touched or move-taken; moved-into-check with move-touched; moved-adverse-man with take-touched. The king (without castling) is owed only when none of these can be exacted, and where the king cannot move either the move is simply recalled (recall: no penalty). No player may waive a penalty (hastings1895:arrangements), so stand is offered only where it is an election: the man played was one of the plurality of own men touched, and the adversary may elect it, letting the move stand; a lone option is exacted at once by the arbiter. With several options the election is the adversary's, before his own next move (IV N.B.); if he moves without electing, the claim has expired: a ruling line records stand by lapse (hastings1895:IV) and both the offending move and his reply stand. With a time control the chooser's own clock runs while he considers."+adverseNotOutOfTurn),
		entry(s+"V", Applied, "Completing a move",
			"A move is not complete until the player's hand has left the man.",
			handLeaves),
		entry(s+"VI", Applied, "Check",
			"Check is said to the king only and need not be called; if it is not called, rule IV's penalties cannot be enforced; the attacked king must be got out of check as soon as attention is drawn to it, and moves made meanwhile are cancelled.",
			"The check button calls a check. A king may stand in a check nobody called: the moves made meanwhile stand, and no touch-move penalty is exacted from its side. When the checker calls it later, unannounced-check (hastings1895:VI) is raised and the arbiter recalls every move made since the check was given (recall); the king must then be got out of check. A move that puts or leaves one's own king in a called check is ruled moved-into-check under hastings1895:IV."),
		entry(s+"VII", Applied, "Threefold repetition",
			"The same position three times, with the same player to move each time, is a draw.",
			"Drawn automatically as soon as the position stands for the third time (hastings1895:VII); no claim is needed. The text speaks of the same position and the same player to move and says nothing of castling rights or en passant: boardd compares the men on their squares and the player to move only."),
		entry(s+"VIII", Applied, "Fifty moves",
			"Either player may at any time call on the other to mate within fifty moves each; if by then nothing has been captured, no pawn moved and no mate given, a draw can be had.",
			"The claim button calls the count (a ruling line with option count, hastings1895:VIII); the fifty moves each run from the call. Every later claim is answered: refused (option refused) while moves of the count remain; once fifty moves each have been played since the call, drawn if nothing was captured and no pawn moved since the call, otherwise refused, the count ended and the next claim calling a new one."),
		entry(s+"IX", Applied, "Castling",
			"No castling out of check or across an attacked square; the king must be moved first, or at least touched before the rook is let go.",
			"The conditions are the rules of movement; a false castling raises false-castling (hastings1895:IX): king or rook. Castling counts only when the king moves first or is lifted while the rook is still in hand; a rook let go on its castling square before the king is touched is a rook move however soon the king follows, and the king following is successive-moves (hastings1895:differences, keep-first)."),
		entry(s+"X", Applied, "Naming the promotion",
			"A pawn on the eighth rank must be named a queen or another piece, as the player pleases, whatever is on the board; the new piece acts at once; until it is named the move is not complete.",
			"An unnamed promotion raises bad-promotion (hastings1895:X), chosen by the promoting player: promote-q, promote-r, promote-b or promote-n (or the promote button); the board meanwhile reads the man on the last rank as a queen. The choice never lapses and boardd never names the piece for him: a move the adversary makes before it is named does not complete the promotion (the LEDs show his man to put back, and play resumes once it is), and the promoter still names the piece."),
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
			"Under hastings1895 (and under any law-set with --tournament) the waivers stand and keep-all are never offered (stand only as the election of the man played, itself one of several men touched: hastings1895:IV), and where one option remains the arbiter applies it at once. With several options the adversary elects, and an election not made before his own next move has expired (IV N.B.): stand by lapse (hastings1895:IV), his reply standing; the failure to claim is his breach of the regulations, for the committee. With --tournament, boardd's own rule, the arbiter exacts the first option instead and takes the reply back."),
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
