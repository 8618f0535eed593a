package report

import "testing"

// TestTakenBack: the count a take-back ruling's reason gives is read back,
// and nothing is read from another report or a reason that does not say.
func TestTakenBack(t *testing.T) {
	tests := []struct {
		name string
		r    Report
		want int
		ok   bool
	}{
		{"one", Report{Type: Ruling, Option: OptTakeBack, Reason: TakeBackReason(1)}, 1, true},
		{"two", Report{Type: Ruling, Option: OptTakeBack, Reason: TakeBackReason(2)}, 2, true},
		{"twelve", Report{Type: Ruling, Option: OptTakeBack, Reason: "12 moves taken back"}, 12, true},
		{"another ruling", Report{Type: Ruling, Option: OptRecall, Reason: "2 moves taken back"}, 0, false},
		{"not a ruling", Report{Type: Result, Option: OptTakeBack, Reason: "2 moves taken back"}, 0, false},
		{"no count", Report{Type: Ruling, Option: OptTakeBack, Reason: "moves taken back"}, 0, false},
		{"zero", Report{Type: Ruling, Option: OptTakeBack, Reason: "0 moves taken back"}, 0, false},
		{"other words", Report{Type: Ruling, Option: OptTakeBack, Reason: "2 moves refused"}, 0, false},
		{"no reason", Report{Type: Ruling, Option: OptTakeBack}, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, ok := tc.r.TakenBack()
			if n != tc.want || ok != tc.ok {
				t.Errorf("TakenBack() = %d, %v; want %d, %v", n, ok, tc.want, tc.ok)
			}
		})
	}
	if got := TakeBackReason(1); got != "1 move taken back" {
		t.Errorf("TakeBackReason(1) = %q", got)
	}
	if got := TakeBackReason(3); got != "3 moves taken back" {
		t.Errorf("TakeBackReason(3) = %q", got)
	}
}
