package lawset

// proof is what shows boardd applying a law: law scenarios
// (testdata/laws/NAME.trace, replayed by cmd/boardd's tests with their
// output kept in testdata/laws/golden) and Go tests ("package.TestName")
// where the law is the rules of movement or the reading of hands.
type proof struct {
	scenarios []string
	tests     []string
}

func scenarios(names ...string) proof { return proof{scenarios: names} }

// The Go tests that prove laws no scenario shows alone.
const (
	// Every legal move of the rules library, applied and compared on a
	// perft walk: the rules of movement.
	rulesOfMovement = "board.TestApplyMatchesLibrary"
	// Every move, captures, castling, en passant and promotion included,
	// read back in every physical order of the hands.
	everyPhysicalOrder = "gesture.TestMovesInEveryPhysicalOrder"
	// Touches, j'adoube and adjustments read from lifts.
	touchesRead = "gesture.TestTouchesAndAdjustments"
)

// proofs maps a law id to its proof.
func proofs() map[string]proof {
	const lawsTable = "arbiter.TestLaws" // a case per law, named by its id
	movement := proof{tests: []string{rulesOfMovement}}
	hands := proof{tests: []string{everyPhysicalOrder}}
	promotion := proof{scenarios: []string{"fide2023-promotion-reply-before-press"}, tests: []string{"game.TestRandomGamesReplayClean"}}
	return map[string]proof{
		"sarratt1808:2":  scenarios("sarratt1808-misplaced-setup"),
		"sarratt1808:3":  scenarios("sarratt1808-forgotten-man"),
		"sarratt1808:6":  scenarios("sarratt1808-odds-pawn-and-move"),
		"sarratt1808:7":  scenarios("sarratt1808-touch-move-lapse", "sarratt1808-tournament-touch-move", "sarratt1808-several-touched-adversary-elects", "sarratt1808-own-and-adverse-touched-capture-offered"),
		"sarratt1808:8":  hands,
		"sarratt1808:9":  {scenarios: []string{"sarratt1808-own-and-adverse-touched-capture-offered", "sarratt1808-adverse-pawn-taken-en-passant"}, tests: []string{lawsTable}},
		"sarratt1808:10": scenarios("sarratt1808-moved-adverse-man", "sarratt1808-adverse-pawn-moved-impossibly", "sarratt1808-remote-man-moved-by-player"),
		"sarratt1808:11": scenarios("sarratt1808-false-en-passant"),
		"sarratt1808:12": scenarios("sarratt1808-own-capture"),
		"sarratt1808:13": scenarios("sarratt1808-pinned-man-could-move", "sarratt1808-jadoube-ends-claim"),
		"sarratt1808:14": scenarios("sarratt1808-successive-moves"),
		"sarratt1808:15": movement,
		"sarratt1808:16": scenarios("sarratt1808-false-castling"),
		"sarratt1808:17": scenarios("sarratt1808-pinned-man-cannot-move", "sarratt1808-announced-check", "sarratt1808-blocked-man-touched"),
		"sarratt1808:18": scenarios("sarratt1808-announced-check", "sarratt1808-late-check-stand"),
		"sarratt1808:19": scenarios("sarratt1808-check-noticed"),
		"sarratt1808:20": scenarios("sarratt1808-false-check-touch-free"),
		"sarratt1808:21": scenarios("sarratt1808-touch-move-lapse", "sarratt1808-jadoube-ends-claim"),
		"sarratt1808:22": promotion,
		"sarratt1808:23": scenarios("sarratt1808-no-repetition-rule"),
		"sarratt1808:24": scenarios("sarratt1808-stalemate-draw"),

		"philidor1825:III":  scenarios("philidor1825-forgotten-man-set-in-place"),
		"philidor1825:V":    scenarios("philidor1825-touch-move-lapse", "philidor1825-several-touched-adversary-elects", "philidor1825-own-and-adverse-touched-capture-offered"),
		"philidor1825:VI":   scenarios("philidor1825-adverse-man-moved-king-fallback", "philidor1825-own-and-adverse-touched-capture-offered", "philidor1825-adverse-pawn-taken-en-passant", "philidor1825-adverse-pawn-moved-impossibly", "philidor1825-remote-man-moved-by-player"),
		"philidor1825:VII":  hands,
		"philidor1825:VIII": scenarios("philidor1825-false-en-passant", "philidor1825-pinned-man-could-move", "philidor1825-successive-moves-king", "philidor1825-successive-moves-king-after-first-move", "philidor1825-touch-move-lapse"),
		"philidor1825:IX":   promotion,
		"philidor1825:X":    movement,
		"philidor1825:XI":   {scenarios: []string{"nycc-castling-rook-first"}, tests: []string{rulesOfMovement}},
		"philidor1825:XII":  scenarios("philidor1825-false-castling-own-choice"),
		"philidor1825:XIII": scenarios("philidor1825-unannounced-check"),
		"philidor1825:XIV":  scenarios("philidor1825-false-check-touch-free"),
		"philidor1825:XV":   scenarios("philidor1825-pinned-man-could-move"),
		"philidor1825:XVI":  scenarios("philidor1825-stalemate-wins"),
		"philidor1825:XVII": {tests: []string{lawsTable}},

		"nycc:II":   movement,
		"nycc:III":  promotion,
		"nycc:IV":   scenarios("nycc-late-check-recalls-all", "nycc-check-called-after-hand-withdrawn", "nycc-false-check", "nycc-touch-after-unannounced-check"),
		"nycc:V":    scenarios("nycc-stalemate-draw"),
		"nycc:VI":   scenarios("nycc-misplaced-setup-too-late"),
		"nycc:VIII": {tests: []string{"lawset.TestFlagUnderEachLawSet"}},
		"nycc:IX":   scenarios("nycc-misplaced-setup", "nycc-misplaced-setup-too-late"),
		"nycc:X":    scenarios("nycc-own-and-adverse-touched-capture-offered", "nycc-adverse-pawn-taken-en-passant", "nycc-touch-move-claimed", "nycc-touch-move-lapse", "nycc-castling-rook-first"),
		"nycc:XI":   scenarios("nycc-several-touched-adversary-elects", "nycc-tournament-several-touched-played-man-elected", "nycc-touched-unmovable", "nycc-touch-move-lapse"),
		"nycc:XII":  scenarios("nycc-adverse-pawn-moved-impossibly", "nycc-remote-man-moved-by-player", "nycc-false-castling-stands", "nycc-false-en-passant-a-move-late", "nycc-promotion-wrong-square"),
		"nycc:XIII": scenarios("nycc-discovered-check-stays-covered", "nycc-moved-into-check-unexacted-annuls"),
		"nycc:XIV":  {scenarios: []string{"nycc-successive-moves-elect-man", "nycc-successive-moves-recall", "nycc-successive-moves-keep-second"}, tests: []string{lawsTable}},
		"nycc:XVI":  scenarios("nycc-odds-rook"),

		"hastings1895:I":            scenarios("hastings1895-misplaced-setup"),
		"hastings1895:III":          {scenarios: []string{"fide2023-jadoube"}, tests: []string{touchesRead}},
		"hastings1895:IV":           scenarios("hastings1895-touch-move-no-waiver", "hastings1895-several-touched-adversary-elects-played", "hastings1895-own-and-adverse-touched-capture-offered", "hastings1895-adverse-pawn-taken-en-passant", "hastings1895-adverse-pawn-moved-impossibly", "hastings1895-remote-man-moved-by-player", "hastings1895-false-move-king-only-as-fallback", "hastings1895-false-capture-adversary-elects", "hastings1895-false-en-passant", "hastings1895-penalty-not-claimed-before-reply", "hastings1895-no-waiver-on-lapse"),
		"hastings1895:V":            hands,
		"hastings1895:VI":           scenarios("hastings1895-uncalled-check-cancels-all"),
		"hastings1895:VII":          scenarios("hastings1895-threefold-automatic", "hastings1895-repetition-ignores-castling-rights"),
		"hastings1895:VIII":         scenarios("hastings1895-count-fifty-moves-exactly", "hastings1895-count-capture-within-fifty"),
		"hastings1895:IX":           scenarios("hastings1895-castling-king-touched-before-rook-quitted", "hastings1895-rook-quitted-before-king"),
		"hastings1895:X":            scenarios("hastings1895-promotion-named", "hastings1895-promotion-unnamed-adversary-moves"),
		"hastings1895:XI":           {scenarios: []string{"hastings1895-time-forfeit"}, tests: []string{"clock.TestHastingsForfeitClock"}},
		"hastings1895:score":        scenarios("hastings1895-threefold-automatic", "hastings1895-time-forfeit"),
		"hastings1895:time-limit":   scenarios("hastings1895-time-forfeit"),
		"hastings1895:differences":  scenarios("hastings1895-rook-quitted-before-king"),
		"hastings1895:arrangements": scenarios("hastings1895-touch-move-no-waiver", "hastings1895-no-waiver-on-lapse", "sarratt1808-tournament-touch-move"),

		"fide2023:3.7.1":   movement,
		"fide2023:3.7.2":   movement,
		"fide2023:3.7.3":   movement,
		"fide2023:3.7.3.1": {scenarios: []string{"fide2023-false-en-passant"}, tests: []string{rulesOfMovement, everyPhysicalOrder}},
		"fide2023:3.7.3.2": {scenarios: []string{"nycc-false-en-passant-a-move-late"}, tests: []string{rulesOfMovement}},
		"fide2023:3.7.3.3": promotion,
		"fide2023:3.7.3.4": promotion,
		"fide2023:3.7.3.5": promotion,
		"fide2023:4.2.1":   {scenarios: []string{"fide2023-jadoube"}, tests: []string{touchesRead}},
		"fide2023:4.3":     scenarios("fide2023-touch-move-lapse", "fide2023-adverse-man-must-be-taken"),
		"fide2023:4.3.1":   scenarios("fide2023-touch-move-lapse", "fide2023-several-touched-first-binds"),
		"fide2023:4.3.2":   scenarios("fide2023-adverse-man-must-be-taken", "fide2023-adverse-pawn-taken-en-passant"),
		"fide2023:4.3.3":   {scenarios: []string{"fide2023-own-and-adverse-touched-no-third-man", "fide2023-own-and-adverse-touched-cannot-take"}, tests: []string{lawsTable}},
		"fide2023:4.4.1":   {scenarios: []string{"fide2023-king-then-rook-must-castle", "fide2023-king-then-rook-castle-that-side"}, tests: []string{lawsTable}},
		"fide2023:4.4.2":   scenarios("fide2023-castling-rook-touched-first", "fide2023-rook-released-before-king"),
		"fide2023:4.4.3":   scenarios("fide2023-false-castling"),
		"fide2023:4.5":     {tests: []string{lawsTable}},
		"fide2023:4.6":     hands,
		"fide2023:4.6.1":   hands,
		"fide2023:4.6.2":   hands,
		"fide2023:4.6.3":   movement,
		"fide2023:4.7":     {scenarios: []string{"fide2023-promotion-reply-before-press"}, tests: []string{everyPhysicalOrder}},
		"fide2023:4.7.1":   hands,
		"fide2023:4.7.2":   {scenarios: []string{"fide2023-false-castling"}, tests: []string{everyPhysicalOrder}},
		"fide2023:4.7.3":   scenarios("fide2023-promotion-reply-before-press"),
		"fide2023:4.8":     scenarios("fide2023-touch-move-lapse"),
		"fide2023:5.1.1":   {scenarios: []string{"fide2023-checkmate-ends-the-game"}, tests: []string{"game.TestRandomGamesReplayClean"}},
		"fide2023:5.2.1":   scenarios("fide2023-stalemate-draw"),
		"fide2023:5.2.2":   {tests: []string{lawsTable}},
		"fide2023:6.2.1":   scenarios("fide2023-false-move-put-right-before-clock", "fide2023-clock-pressed-after-reply"),
		"fide2023:6.9":     scenarios("fide2023-flag-fall", "fide2023-flag-fall-cannot-mate", "fide2023-end-of-input-is-no-flag"),
		"fide2023:6.11":    {tests: []string{"timekeeper.TestTimekeeperFIDEIllegal"}},
		"fide2023:7.1":     {tests: []string{"timekeeper.TestTimekeeperReconcile"}},
		"fide2023:7.2.1":   scenarios("fide2023-misplaced-setup"),
		"fide2023:7.5.1":   scenarios("fide2023-adverse-pawn-moved-impossibly", "fide2023-remote-man-moved-by-player", "fide2023-adverse-man-must-be-taken", "fide2023-check-needs-no-announcement", "fide2023-false-en-passant", "fide2023-castling-rook-first-one-hand"),
		"fide2023:7.5.2":   scenarios("fide2023-promotion-unnamed", "fide2023-promotion-reply-before-press"),
		"fide2023:7.5.3":   scenarios("fide2023-clock-without-move", "fide2023-clock-pressed-after-reply"),
		"fide2023:7.5.5":   scenarios("fide2023-illegal-move-two-minutes", "fide2023-illegal-twice-loses", "fide2023-illegal-twice-draw"),
		"fide2023:9.2":     scenarios("fide2023-threefold-claim", "fide2023-threefold-unclaimed"),
		"fide2023:9.2.1":   scenarios("fide2023-threefold-claim", "fide2023-threefold-claim-intended-move"),
		"fide2023:9.2.1.1": scenarios("fide2023-threefold-claim-intended-move", "fide2023-intended-claim-incorrect"),
		"fide2023:9.2.1.2": scenarios("fide2023-threefold-claim", "fide2023-claim-after-touch"),
		"fide2023:9.2.2":   {tests: []string{"board.TestRepetitionKeyIgnoresUncapturableEnPassant"}},
		"fide2023:9.3":     {tests: []string{lawsTable}},
		"fide2023:9.3.1":   scenarios("fide2023-fifty-moves-intended-move"),
		"fide2023:9.3.2":   {tests: []string{lawsTable + "/fide2023:9.3"}},
		"fide2023:9.4":     scenarios("fide2023-claim-after-touch", "fide2023-claim-after-jadoube"),
		"fide2023:9.5":     scenarios("fide2023-threefold-claim", "fide2023-incorrect-claim"),
		"fide2023:9.5.1":   {scenarios: []string{"fide2023-threefold-claim-intended-move", "fide2023-intended-claim-incorrect"}, tests: []string{"game.TestClaimHoldsTheClocks"}},
		"fide2023:9.5.2":   scenarios("fide2023-threefold-claim", "fide2023-threefold-claim-intended-move", "fide2023-fifty-moves-intended-move"),
		"fide2023:9.5.3":   scenarios("fide2023-incorrect-claim", "fide2023-intended-claim-incorrect"),
		"fide2023:9.6":     scenarios("fide2023-fivefold"),
		"fide2023:9.6.1":   scenarios("fide2023-fivefold"),
		"fide2023:9.6.2":   {tests: []string{lawsTable}},
		"fide2023:9.7":     {tests: []string{lawsTable + "/fide2023:5.2.2"}},
		"fide2023:D.2.2":   scenarios("fide2023-visually-impaired-touch", "fide2023-visually-impaired-sighted-side"),
		"fide2023:D.2.3":   scenarios("fide2023-visually-impaired-move-made", "fide2023-visually-impaired-sighted-side"),
	}
}
