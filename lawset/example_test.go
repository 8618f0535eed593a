package lawset_test

import (
	"fmt"

	"github.com/boardd/boardd/lawset"
)

// One code's catalogue, law by law in the code's order, with how far boardd
// applies each (`boardd laws philidor1825` prints it in full: summaries and
// applications).
func ExampleLawsOf() {
	laws, err := lawset.LawsOf("philidor1825")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range laws {
		fmt.Printf("%-18s %-8s %s\n", l.ID, l.Status, l.Title)
	}
	// Output:
	// philidor1825:I     partial  Placing the board
	// philidor1825:II    partial  First move
	// philidor1825:III   partial  A man forgotten
	// philidor1825:IV    partial  Odds forgotten
	// philidor1825:V     applied  Touched man must be played
	// philidor1825:VI    applied  Adverse man touched
	// philidor1825:VII   applied  Completing a move
	// philidor1825:VIII  applied  False moves and their limit
	// philidor1825:IX    applied  Promotion
	// philidor1825:X     applied  Pawn's double step and en passant
	// philidor1825:XI    applied  How to castle
	// philidor1825:XII   applied  When castling is barred
	// philidor1825:XIII  applied  Check without warning
	// philidor1825:XIV   applied  Check announced but not given
	// philidor1825:XV    applied  Touched man pinned
	// philidor1825:XVI   applied  Stalemate
	// philidor1825:XVII  applied  Fifty moves for difficult mates
}
