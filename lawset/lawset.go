// Package lawset holds the codes of chess laws boardd applies: Philidor's
// (1825), Sarratt's (1808), the New York Chess Club's, the Hastings 1895
// regulations with the Revised International Code, and the FIDE Laws in
// force since 2023. A LawSet is data (the options each irregularity gives,
// who chooses, when a right lapses, how the game ends) plus the few small
// functions where the codes truly differ (a flag's fall, time penalties);
// each code, with its catalogue of laws in boardd's own words, lives in a
// file of its own. Adding a code is adding one file, its line in sets, and
// its scenarios.
//
// One LawSet value configures every stage of a board's game at once (the
// gesture reading, the arbiter, the clocks), so they can never disagree.
package lawset

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boardd/boardd/board"
	"github.com/boardd/boardd/report"
)

// Role names who chooses among a ruling's options.
type Role uint8

// Who chooses.
const (
	Offended  Role = iota // the player wronged
	Offender              // the player who erred ("at his own choice")
	ByArbiter             // nobody may choose: the law, or the arbiter, decides
)

// Rule is what a law-set says of one irregularity: the law, who chooses,
// and the options in the order the law gives them.
type Rule struct {
	Law     report.Law
	Chooser Role
	Options []report.OptionID
	// KingFallback: the king is owed only where no other penalty of the
	// rule can be exacted (hastings1895:IV, philidor1825:VI); otherwise it
	// is one option among the others.
	KingFallback bool
}

// RepetitionRule says what a law-set makes of a repeated position.
type RepetitionRule uint8

// Repetition rules.
const (
	NoRepetition        RepetitionRule = iota // the code knows none
	ThreefoldAutomatic                        // hastings1895:VII
	ThreefoldClaim                            // fide2023:9.2 (and 9.6.1 fivefold automatic)
	ContinualRepetition                       // nycc:V: a continual repetition, on a claim
)

// IntendedMoveClaim is a draw claim on the move the claimant is about to
// make: the claim button pressed by the player having the move before he
// touches a man, when the position on the board does not bear the claim out
// but one of his moves would, is decided when his next move is made. It
// draws when that move makes the position stand for the third time
// (RepetitionLaw) or completes the moves of the count without capture or
// pawn move (CountLaw); otherwise it is an incorrect claim
// (IncorrectClaimLaw). A claim that no move could bear out is refused at
// once, as it would be whatever move the claimant meant.
type IntendedMoveClaim struct {
	RepetitionLaw report.Law
	CountLaw      report.Law
	// PauseLaw: where a clock runs, both clocks stand from the claim until
	// the move it rests on is made and the claim decided (fide2023:9.5.1);
	// empty where they run on.
	PauseLaw report.Law
}

// CountRule says how a law-set limits an end-game without mate.
type CountRule struct {
	Law         report.Law
	Plies       int  // how long the count runs (50 moves each = 100 plies)
	OnNotice    bool // the count starts when a player calls it (a claim)
	ResetByPawn bool // a capture or pawn move starts the count again
}

// Promotion says what becomes of a promotion whose piece was never named.
type Promotion uint8

// What an unnamed promotion becomes.
const (
	PromoteQueen        Promotion = iota // a queen, silently
	PromoteQueenIllegal                  // a queen, and the move counts as illegal (fide2023:7.5.2)
	PromoteIncomplete                    // the move is incomplete until named (hastings1895:X)
)

// SetupWindow says until when a set-up may be claimed faulty.
type SetupWindow uint8

// Set-up claim windows.
const (
	BeforeFourthMoveEach      SetupWindow = iota // until both sides have made four moves
	BeforeClaimantsFourthMove                    // until the claimant has made four moves (hastings1895:I)
	AnyTime                                      // at any time (fide2023:7.2.1)
)

// SetupRule says what a claim that the men were set up wrongly, or one left
// off, does (the chooser of a wrong set-up is always the arbiter: the game is
// annulled).
type SetupRule struct {
	Law            report.Law // men wrongly placed; "" when the code has no such claim
	MissingLaw     report.Law // a man left off (the set-up law if the code has none of its own)
	MissingChooser Role       // ByArbiter annuls; Offended chooses among MissingOptions
	// MissingOptions are the offended player's options for a man left off
	// (annul, and stand or place-forgotten); empty: annul alone.
	MissingOptions []report.OptionID
	// MissingAnyTime: a man left off may be claimed at any time, whatever
	// Window says for men wrongly placed (philidor1825:III).
	MissingAnyTime bool
	Window         SetupWindow
}

// FirstTouchedLaws are the articles a code that binds only the first
// touched man (fide2023:4.3 and 4.4) cites for each case.
type FirstTouchedLaws struct {
	Own          report.Law // the first touched own man that can move must move
	Adverse      report.Law // the first touched adverse man that can be taken must be taken
	Both         report.Law // men of both colours: take the one with the other
	KingThenRook report.Law // king touched, then a rook: castle on that side
	RookFirst    report.Law // rook touched before the king: no castling that side
}

// AppendixD is what a law-set says of the board of a visually disabled
// player: the laws cited for his touches and his moves made.
type AppendixD struct {
	// TouchLaw: his man counts as touched when taken out of its square
	// (fide2023:D.2.2).
	TouchLaw report.Law
	// MoveLaw: his move counts as made when any man it takes is off the
	// board, his man is set on another square and the move has been
	// announced; only then does the opponent's clock start (fide2023:D.2.3).
	MoveLaw report.Law
}

// LawSet is one code of laws as boardd applies it.
type LawSet struct {
	ID      string
	Name    string
	Year    int
	Summary string

	// RookFirstCastling: a rook set on its castling square first is still
	// castling (nycc:X; the older codes are silent and so do not forbid it).
	RookFirstCastling bool
	// FirstTouchedBinds: only the first touched man that can move binds
	// (fide2023:4.3); otherwise every touched man binds and the adversary
	// elects among them.
	FirstTouchedBinds bool
	FirstTouched      FirstTouchedLaws
	// KingForSeveralTouched: when several men were touched the adversary may
	// require a king move instead (nycc:XI).
	KingForSeveralTouched bool
	// AdverseTouchLaw is the law cited when an adverse man touched is not
	// taken.
	AdverseTouchLaw report.Law
	// UnmovableKingPenalty: a touched man that cannot be moved obliges a king
	// move (nycc:XI, hastings1895:IV); fide2023:4.5 gives no penalty.
	UnmovableKingPenalty bool
	// UnmovableOnlyWhenPinned: the king is owed for a touched man only when
	// the man could move but for exposing its king (sarratt1808:17,
	// philidor1825:XV); a man merely hemmed in binds nobody.
	UnmovableOnlyWhenPinned bool
	// IntoCheckByMovableMan is the rule for a move that leaves the mover's
	// king attacked, made with a man that had lawful moves: a false move
	// (sarratt1808:13, philidor1825:VIII), the moved-into-check rule being
	// kept for a man that could not move without exposing its king; nil
	// where the moved-into-check rule covers both.
	IntoCheckByMovableMan *Rule
	// PromotionOnWrongSquare: a pawn played to its last rank onto a square
	// it cannot reach (its new man set on a wrong square) is recalled, the
	// pawn replaced and the king moved, by the code alone (nycc:XII); nil
	// where it is a false move like any other.
	PromotionOnWrongSquare *Rule
	// DiscoveredCheckCovered: a man that discovered check on its own king
	// must be moved so that the check stays covered, the king only when it
	// cannot (nycc:XIII).
	DiscoveredCheckCovered bool
	// KingPenaltyNoCastling: the king moved as a penalty may not castle
	// (nycc:XI, hastings1895:IV).
	KingPenaltyNoCastling bool
	// NoWaiver: no player may waive a penalty (the Hastings regulations).
	NoWaiver bool
	// SuccessiveRevokesSecondOnly: of two moves made running, a penalty
	// revokes only the second, a false move under philidor1825:VIII, and
	// the king it imposes is played at the offender's next turn; otherwise
	// recall and king take both moves back.
	SuccessiveRevokesSecondOnly bool
	// AnnulWhenNotExacted lists the irregularities whose penalty, not
	// exacted at once, annuls the game (nycc:XIII, nycc:XIV).
	AnnulWhenNotExacted []report.Kind
	// LapseOnTouch: the right to a penalty lapses once the offended player
	// touches a man (sarratt1808:21, fide2023:4.8); otherwise once he makes
	// his own next move (philidor1825:VIII, nycc:XI, hastings1895:IV).
	LapseOnTouch bool
	LapseLaw     report.Law
	// AnnouncedTouchLapses: a man touched with j'adoube announced ends the
	// right too (sarratt1808:21 "or even touched a piece": j'adoube spares
	// the man from law 7, not the claim from law 21).
	AnnouncedTouchLapses bool
	// StalemateWins: the stalemated player wins (philidor1825:XVI).
	StalemateWins bool
	StalemateLaw  report.Law
	MateLaw       report.Law
	Repetition    RepetitionRule
	RepetitionLaw report.Law
	// DrawOfferLaw is the law a draw offer rests on where the code has
	// one (fide2023:9.1.2.1: made after moving, standing until accepted
	// or declined); "" where the code says nothing of draw offers, and
	// they are carried alike, no law cited (paired boards, package pair).
	DrawOfferLaw report.Law
	// RepetitionByPlacement: a position is the same when the same men stand
	// on the same squares with the same player to move; castling rights and
	// en passant do not count (hastings1895:VII says nothing of them).
	RepetitionByPlacement bool
	// FivefoldLaw and SeventyFiveLaw end the game drawn without a claim
	// (fide2023:9.6.1 and 9.6.2); empty where the code knows no such end.
	FivefoldLaw    report.Law
	SeventyFiveLaw report.Law
	Count          *CountRule
	// ClaimOnMoveOnly: a draw claim is the right of the player having the
	// move (fide2023:9.2, 9.3); other presses are not claims.
	ClaimOnMoveOnly bool
	// IncorrectClaimLaw refuses a draw claim not borne out, with time to the
	// opponent (fide2023:9.5.3); empty where an idle claim does nothing.
	IncorrectClaimLaw report.Law
	// IntendedMoveClaim lets a draw claim rest on the move the claimant is
	// about to make (fide2023:9.2.1.1, 9.3.1); nil where the code knows no
	// such claim.
	IntendedMoveClaim *IntendedMoveClaim
	// ClaimAfterTouchLaw takes the right to claim a draw on this move from
	// the player having the move once he has touched a man to move or take
	// it (fide2023:9.4): his claim is refused under it. Empty where a touch
	// ends no claim.
	ClaimAfterTouchLaw report.Law
	// InsufficientDraw: a draw when neither side can mate (nycc:V; FIDE's
	// dead position, fide2023:5.2.2), with the reason the result gives.
	InsufficientDraw   bool
	InsufficientLaw    report.Law
	InsufficientReason string
	// UnnamedPromotion says what a promotion never named becomes.
	UnnamedPromotion Promotion
	PromotionLaw     report.Law
	// IllegalMoveLaw: completed illegal moves are counted, time goes to the
	// opponent after the first and a second loses (fide2023:7.5.5); empty
	// where the code knows no such count.
	IllegalMoveLaw report.Law
	// ClockCompletesIllegalMove: where a clock runs, a false move is made
	// only when the clock is pressed, so until then it may still be put
	// right (fide2023:7.5.1).
	ClockCompletesIllegalMove bool
	// ClockWithoutMoveLaw: a clock pressed without a move is penalised as an
	// illegal move (fide2023:7.5.3); empty where the code says nothing.
	ClockWithoutMoveLaw report.Law
	// AppendixD holds the rules for a visually disabled player's board
	// (fide2023:D.2.2, D.2.3); nil where the code has none, and then no
	// side can be named visually impaired.
	AppendixD *AppendixD
	// CheckLaw: the code wants checks announced (philidor1825:XIII,
	// sarratt1808:18, nycc:IV, hastings1895:VI); empty where it does not.
	CheckLaw report.Law
	// LateCheck is what a check announced late does: the moves since are
	// recalled by the arbiter, or at the offended player's choice.
	LateCheck Rule
	// NoticedCheck lets a player whose king has stood in an uncalled check
	// during two or more moves, on noticing it himself, put back his last
	// move and parry (sarratt1808:19); nil where the code gives no such
	// right.
	NoticedCheck *Rule
	// UncalledCheckMayBeIgnored: a move that leaves the mover's king in an
	// unannounced check stands.
	UncalledCheckMayBeIgnored bool
	// TouchFreeAfterUncalledCheck: a man touched by a player whose king
	// stands in an uncalled check need not be moved (nycc:IV,
	// hastings1895:VI).
	TouchFreeAfterUncalledCheck bool
	// FalseCheckLaw lets a player misled by a false "check" take his move
	// back (philidor1825:XIV, sarratt1808:20, nycc:IV); empty where the code
	// gives no such right. FalseCheckLapsesOnTouch: the right lapses once
	// the checker touches a man (nycc:IV).
	FalseCheckLaw           report.Law
	FalseCheckLapsesOnTouch bool
	// FalseCheckFreesTouch: in his turn right after a false announcement
	// of check, the misled player's touches bind nobody (philidor1825:XIV,
	// sarratt1808:20: he may retract what he touched or moved).
	FalseCheckFreesTouch bool
	Setup                SetupRule

	// Rules give each irregularity's law, chooser and options.
	Rules map[report.Kind]Rule

	// Time: what a flag's fall means (opponentCanMate: whether the flagged
	// side's opponent could still mate by some series of legal moves), the
	// time a penalty gives the opponent (fast: the game is rapid or blitz;
	// nil where the code gives none), and whose clock runs during a choice.
	Flag            func(flagged board.Color, opponentCanMate bool) Ruling
	TimePenalty     func(o Offence, fast bool) (Penalty, bool)
	DuringChoice    ChoiceClock
	DuringChoiceLaw report.Law

	// Laws are the code's laws, in its order, as `boardd laws` prints them.
	Laws []Law
}

// Rule returns the law, chooser and options the law-set gives an
// irregularity of kind k.
func (ls *LawSet) Rule(k report.Kind) (Rule, bool) {
	r, ok := ls.Rules[k]
	return r, ok
}

// AnnulsWhenNotExacted reports whether an irregularity of kind k whose
// penalty was not exacted at once annuls the game.
func (ls *LawSet) AnnulsWhenNotExacted(k report.Kind) bool {
	for _, a := range ls.AnnulWhenNotExacted {
		if a == k {
			return true
		}
	}
	return false
}

// sets returns every code boardd carries, oldest first.
func sets() []*LawSet {
	all := []*LawSet{sarratt1808(), philidor1825(), nycc(), hastings1895(), fide2023()}
	p := proofs()
	for _, s := range all {
		for i := range s.Laws {
			l := &s.Laws[i]
			l.Scenarios, l.Tests = p[string(l.ID)].scenarios, p[string(l.ID)].tests
		}
	}
	return all
}

// All returns every law-set boardd carries, oldest first. The values are
// new on each call.
func All() []*LawSet { return sets() }

// IDs returns the ids of the law-sets, oldest first.
func IDs() []string {
	var out []string
	for _, s := range sets() {
		out = append(out, s.ID)
	}
	return out
}

// Lookup returns the law-set with the given id, or an error listing the ids.
func Lookup(id string) (*LawSet, error) {
	for _, s := range sets() {
		if s.ID == id {
			return s, nil
		}
	}
	ids := IDs()
	sort.Strings(ids)
	return nil, fmt.Errorf("unknown law-set %q: known law-sets are %s", id, strings.Join(ids, ", "))
}

// winFor is the result of a win by c.
func winFor(c board.Color) report.Outcome {
	if c == board.White {
		return report.WhiteWins
	}
	return report.BlackWins
}

// name is the side's name in a ruling's words.
func name(c board.Color) string {
	if c == board.White {
		return "White"
	}
	return "Black"
}
