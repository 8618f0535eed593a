package arbiter

import (
	"fmt"
	"sort"
	"strings"
)

// Role names who chooses among a ruling's options.
type Role uint8

// Who chooses.
const (
	Offended  Role = iota // the player wronged
	Offender              // the player who erred ("at his own choice")
	ByArbiter             // nobody may choose: the law, or the arbiter, decides
)

// Option ids, the vocabulary of rulings (docs/laws.md explains each).
const (
	OptStand       = "stand"        // the move remains
	OptRecall      = "recall"       // taken back; the offender moves freely
	OptMoveTouched = "move-touched" // taken back; the offender must play the touched (offending) man
	OptMoveTaken   = "move-taken"   // taken back; the offender must play the own man he took (sarratt1808:12)
	OptTakeTouched = "take-touched" // taken back; the offender must take the touched adverse man
	OptKing        = "king"         // taken back; the offender must move his king (without castling)
	OptRook        = "rook"         // taken back; the offender must move the rook
	OptCastle      = "castle"       // taken back; the offender must castle correctly
	OptReplace     = "replace"      // the adverse man moved is put back; the offender moves freely
	OptKeepFirst   = "keep-first"   // successive moves: the second is taken back
	OptKeepAll     = "keep-all"     // successive moves: both remain
	OptAnnul       = "annul"        // the game is annulled and begun anew
	OptRestore     = "restore"      // fide2023:7.5.1: the position before the irregularity is reinstated
	OptPromoteQ    = "promote-q"    // name the promotion piece (hastings1895:X)
	OptPromoteR    = "promote-r"
	OptPromoteB    = "promote-b"
	OptPromoteN    = "promote-n"
)

// Irregularity kinds.
const (
	KindFalseMove      = "false-move"
	KindMovedIntoCheck = "moved-into-check"
	KindFalseCastling  = "false-castling"
	KindOwnCapture     = "own-capture"
	KindMovedAdverse   = "moved-adverse-man"
	KindSuccessive     = "successive-moves"
	KindTouchMove      = "touch-move"
	KindUnmovable      = "touched-unmovable"
	KindUncapturable   = "touched-uncapturable"
	KindBadPromotion   = "bad-promotion"
	KindUnannounced    = "unannounced-check"
	KindFalseCheck     = "false-check"
	KindSetup          = "misplaced-setup"
	// KindClockWithoutMove: the clock pressed by the player to move, who has
	// not moved (fide2023:7.5.3).
	KindClockWithoutMove = "clock-without-move"
)

// rule is what a law-set says of one irregularity.
type rule struct {
	law     string
	chooser Role
	options []string
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

// CountRule says how a law-set limits an end-game without mate.
type CountRule struct {
	Law         string
	Plies       int  // how long the count runs (50 moves each = 100 plies)
	OnNotice    bool // the count starts when a player calls it (a claim)
	ResetByPawn bool // a capture or pawn move starts the count again
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
	// UnmovableKingPenalty: a touched man that cannot be moved obliges a king
	// move (all the historical codes); fide2023:4.5 gives no penalty.
	UnmovableKingPenalty bool
	// KingPenaltyNoCastling: the king moved as a penalty may not castle
	// (nycc:XI, hastings1895:IV).
	KingPenaltyNoCastling bool
	// NoWaiver: no player may waive a penalty (the Hastings regulations).
	NoWaiver bool
	// LapseOnTouch: the right to a penalty lapses once the offended player
	// touches a man (sarratt1808:21, fide2023:4.8); otherwise once he makes
	// his own next move (philidor1825:VIII, nycc:XI, hastings1895:IV).
	LapseOnTouch bool
	LapseLaw     string
	// StalemateWins: the stalemated player wins (philidor1825:XVI).
	StalemateWins bool
	StalemateLaw  string
	MateLaw       string
	Repetition    RepetitionRule
	RepetitionLaw string
	Count         *CountRule
	// InsufficientDraw: a draw when neither side can mate (nycc:V; FIDE's
	// dead position, fide2023:5.2.2).
	InsufficientDraw bool
	InsufficientLaw  string
	// UnnamedPromotion: what happens to a promotion never named: "queen"
	// silently, "queen-illegal" (fide2023:7.5.2), or "incomplete"
	// (hastings1895:X).
	UnnamedPromotion string
	PromotionLaw     string
	// IllegalMovePenalty: fide2023:7.5.5 (time to the opponent, a second
	// illegal move loses).
	IllegalMovePenalty bool
	// CheckMustBeAnnounced: unannounced check may be ignored (philidor1825:
	// XIII, sarratt1808:18, nycc:IV); hastings1895:VI makes the touch-move
	// penalties unenforceable after an uncalled check.
	CheckLaw string

	rules map[string]rule
}

// Rule returns the law, chooser and options a law-set gives an irregularity.
func (ls *LawSet) rule(kind string) (rule, bool) {
	r, ok := ls.rules[kind]
	return r, ok
}

// LawSets returns the five law-sets boardd carries, by id.
func LawSets() map[string]*LawSet {
	sets := []*LawSet{philidor(), sarratt(), nycc(), hastings(), fide()}
	out := make(map[string]*LawSet, len(sets))
	for _, s := range sets {
		out[s.ID] = s
	}
	return out
}

// LawSetIDs returns the ids of the law-sets, oldest first.
func LawSetIDs() []string {
	return []string{"sarratt1808", "philidor1825", "nycc", "hastings1895", "fide2023"}
}

// Lookup returns the law-set with the given id, or an error listing the ids.
func Lookup(id string) (*LawSet, error) {
	if ls, ok := LawSets()[id]; ok {
		return ls, nil
	}
	ids := LawSetIDs()
	sort.Strings(ids)
	return nil, fmt.Errorf("unknown law-set %q: known law-sets are %s", id, strings.Join(ids, ", "))
}

func philidor() *LawSet {
	return &LawSet{
		ID: "philidor1825", Name: "Philidor's Laws of Chess (1825)", Year: 1825,
		Summary:              "The seventeen laws adopted by the London chess club, as printed in Philidor's Studies of Chess.",
		RookFirstCastling:    true,
		UnmovableKingPenalty: true,
		LapseLaw:             "philidor1825:VIII",
		StalemateWins:        true, StalemateLaw: "philidor1825:XVI",
		Repetition:       NoRepetition,
		Count:            &CountRule{Law: "philidor1825:XVII", Plies: 100, OnNotice: true},
		UnnamedPromotion: "queen", PromotionLaw: "philidor1825:IX",
		CheckLaw: "philidor1825:XIII",
		rules: map[string]rule{
			KindTouchMove:      {"philidor1825:V", Offended, []string{OptStand, OptMoveTouched, OptTakeTouched, OptKing}},
			KindUnmovable:      {"philidor1825:XV", Offended, []string{OptKing, OptStand}},
			KindUncapturable:   {"philidor1825:VI", Offended, []string{OptKing, OptStand}},
			KindFalseMove:      {"philidor1825:VIII", Offended, []string{OptStand, OptKing}},
			KindOwnCapture:     {"philidor1825:VIII", Offended, []string{OptStand, OptKing}},
			KindMovedIntoCheck: {"philidor1825:XV", Offended, []string{OptKing}},
			KindFalseCastling:  {"philidor1825:XII", Offender, []string{OptRook, OptKing}},
			KindMovedAdverse:   {"philidor1825:VI", Offended, []string{OptStand, OptTakeTouched, OptKing}},
			KindSuccessive:     {"philidor1825:VIII", Offended, []string{OptKeepAll, OptKeepFirst}},
		},
	}
}

func sarratt() *LawSet {
	return &LawSet{
		ID: "sarratt1808", Name: "Sarratt's Laws of Chess (1808)", Year: 1808,
		Summary:              "The twenty-five laws of J. H. Sarratt's Treatise on the Game of Chess.",
		RookFirstCastling:    true,
		UnmovableKingPenalty: true,
		LapseOnTouch:         true, LapseLaw: "sarratt1808:21",
		StalemateLaw:     "sarratt1808:24",
		Repetition:       NoRepetition,
		Count:            &CountRule{Law: "sarratt1808:23", Plies: 100, OnNotice: true},
		UnnamedPromotion: "queen", PromotionLaw: "sarratt1808:22",
		CheckLaw: "sarratt1808:18",
		rules: map[string]rule{
			KindTouchMove:      {"sarratt1808:7", Offended, []string{OptStand, OptMoveTouched, OptTakeTouched, OptKing}},
			KindUnmovable:      {"sarratt1808:17", Offended, []string{OptKing, OptStand}},
			KindUncapturable:   {"sarratt1808:9", Offended, []string{OptKing, OptStand}},
			KindFalseMove:      {"sarratt1808:13", Offended, []string{OptStand, OptMoveTouched, OptKing}},
			"false-capture":    {"sarratt1808:11", Offended, []string{OptStand, OptTakeTouched, OptMoveTouched}},
			KindOwnCapture:     {"sarratt1808:12", Offended, []string{OptStand, OptMoveTouched, OptMoveTaken}},
			KindMovedIntoCheck: {"sarratt1808:17", Offended, []string{OptKing}},
			KindFalseCastling:  {"sarratt1808:16", Offended, []string{OptKing, OptRook}},
			KindMovedAdverse:   {"sarratt1808:10", Offended, []string{OptStand, OptTakeTouched, OptReplace}},
			KindSuccessive:     {"sarratt1808:14", Offended, []string{OptKeepFirst, OptKeepAll}},
		},
	}
}

func nycc() *LawSet {
	return &LawSet{
		ID: "nycc", Name: "The New York Chess Club code", Year: 1850,
		Summary:               "The eighteen laws sanctioned by the New York Chess Club.",
		RookFirstCastling:     true,
		UnmovableKingPenalty:  true,
		KingPenaltyNoCastling: true,
		LapseLaw:              "nycc:XI",
		StalemateLaw:          "nycc:V", MateLaw: "nycc:V",
		Repetition: ContinualRepetition, RepetitionLaw: "nycc:V",
		Count:            &CountRule{Law: "nycc:VI", Plies: 120, OnNotice: true},
		InsufficientDraw: true, InsufficientLaw: "nycc:V",
		UnnamedPromotion: "queen", PromotionLaw: "nycc:III",
		CheckLaw: "nycc:IV",
		rules: map[string]rule{
			KindTouchMove:      {"nycc:X", Offended, []string{OptStand, OptMoveTouched, OptTakeTouched, OptKing}},
			KindUnmovable:      {"nycc:XI", Offended, []string{OptKing, OptStand}},
			KindUncapturable:   {"nycc:XI", Offended, []string{OptKing, OptStand}},
			KindFalseMove:      {"nycc:XII", Offended, []string{OptStand, OptRecall, OptMoveTouched, OptKing}},
			KindOwnCapture:     {"nycc:XII", Offended, []string{OptStand, OptRecall, OptMoveTouched, OptKing}},
			KindMovedAdverse:   {"nycc:XII", Offended, []string{OptStand, OptRecall, OptMoveTouched, OptKing}},
			KindMovedIntoCheck: {"nycc:XIII", Offended, []string{OptKing}},
			KindFalseCastling:  {"nycc:XII", Offended, []string{OptStand, OptCastle, OptKing, OptRook}},
			KindBadPromotion:   {"nycc:XII", ByArbiter, []string{OptKing}},
			KindSuccessive:     {"nycc:XIV", Offended, []string{OptKeepAll, OptKeepFirst, OptRecall, OptKing}},
		},
	}
}

func hastings() *LawSet {
	return &LawSet{
		ID: "hastings1895", Name: "Hastings 1895: tournament regulations and the Revised International Code", Year: 1895,
		Summary:               "The regulations of the Hastings International Tournament of 1895 and the thirteen rules of the Revised International Code it played under.",
		UnmovableKingPenalty:  true,
		KingPenaltyNoCastling: true,
		NoWaiver:              true,
		LapseLaw:              "hastings1895:IV",
		Repetition:            ThreefoldAutomatic, RepetitionLaw: "hastings1895:VII",
		Count:            &CountRule{Law: "hastings1895:VIII", Plies: 100, OnNotice: true, ResetByPawn: true},
		UnnamedPromotion: "incomplete", PromotionLaw: "hastings1895:X",
		CheckLaw: "hastings1895:VI",
		rules: map[string]rule{
			KindTouchMove:      {"hastings1895:IV", Offended, []string{OptMoveTouched, OptTakeTouched, OptKing}},
			KindUnmovable:      {"hastings1895:IV", Offended, []string{OptKing}},
			KindUncapturable:   {"hastings1895:IV", Offended, []string{OptKing}},
			KindFalseMove:      {"hastings1895:IV", Offended, []string{OptMoveTouched, OptKing}},
			KindOwnCapture:     {"hastings1895:IV", Offended, []string{OptMoveTouched, OptKing}},
			KindMovedAdverse:   {"hastings1895:IV", Offended, []string{OptTakeTouched, OptKing}},
			KindMovedIntoCheck: {"hastings1895:IV", Offended, []string{OptMoveTouched, OptKing}},
			KindFalseCastling:  {"hastings1895:IX", Offended, []string{OptKing, OptRook}},
			KindSuccessive:     {"hastings1895:differences", ByArbiter, []string{OptKeepFirst}},
			KindBadPromotion:   {"hastings1895:X", Offender, []string{OptPromoteQ, OptPromoteR, OptPromoteB, OptPromoteN}},
		},
	}
}

func fide() *LawSet {
	return &LawSet{
		ID: "fide2023", Name: "FIDE Laws of Chess (in force from 1 January 2023)", Year: 2023,
		Summary:           "The FIDE Laws of Chess: the basic rules and the competition rules.",
		FirstTouchedBinds: true,
		LapseOnTouch:      true, LapseLaw: "fide2023:4.8",
		StalemateLaw: "fide2023:5.2.1", MateLaw: "fide2023:5.1.1",
		Repetition: ThreefoldClaim, RepetitionLaw: "fide2023:9.2",
		Count:            &CountRule{Law: "fide2023:9.3", Plies: 100, ResetByPawn: true},
		InsufficientDraw: true, InsufficientLaw: "fide2023:5.2.2",
		UnnamedPromotion: "queen-illegal", PromotionLaw: "fide2023:7.5.2",
		IllegalMovePenalty: true,
		rules: map[string]rule{
			KindTouchMove:      {"fide2023:4.3", Offended, []string{OptStand, OptMoveTouched, OptTakeTouched, OptRook, OptKing}},
			KindFalseMove:      {"fide2023:7.5.1", ByArbiter, []string{OptRestore}},
			KindOwnCapture:     {"fide2023:7.5.1", ByArbiter, []string{OptRestore}},
			KindMovedAdverse:   {"fide2023:7.5.1", ByArbiter, []string{OptRestore}},
			KindMovedIntoCheck: {"fide2023:7.5.1", ByArbiter, []string{OptRestore}},
			KindSuccessive:     {"fide2023:7.5.1", ByArbiter, []string{OptRestore}},
			KindFalseCastling:  {"fide2023:4.4.3", ByArbiter, []string{OptRestore}},
			KindBadPromotion:   {"fide2023:7.5.2", ByArbiter, []string{OptStand}},
		},
	}
}
