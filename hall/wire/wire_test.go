package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/report"
	"github.com/boardd/boardd/trace"
)

func TestTopics(t *testing.T) {
	if got := Topic("b7", KindEvent); got != "boardd/v1/b7/event" {
		t.Errorf("Topic: %s", got)
	}
	if got := Every(KindState); got != "boardd/v1/+/state" {
		t.Errorf("Every: %s", got)
	}
	for _, c := range []struct {
		topic, board, kind, err string
	}{
		{"boardd/v1/b7/event", "b7", "event", ""},
		{"boardd/v1/club.2_a-b/ack", "club.2_a-b", "ack", ""},
		{"boardd/v2/b7/event", "", "", "not under boardd/v1/"},
		{"boardd/v1/b7", "", "", "want boardd/v1/<board>/<kind>"},
		{"boardd/v1/b7/event/x", "", "", "want boardd/v1/<board>/<kind>"},
		{"boardd/v1/b 7/event", "", "", "board id"},
		{"boardd/v1//event", "", "", "board id"},
		{"boardd/v1/b7/gossip", "", "", `unknown kind "gossip"`},
	} {
		b, k, err := ParseTopic(c.topic)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.topic, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.topic, err, c.err)
		case b != c.board || k != c.kind:
			t.Errorf("%s: board %q kind %q", c.topic, b, k)
		}
	}
}

func TestActionLine(t *testing.T) {
	for _, c := range []struct {
		a    Action
		want trace.Line
		err  string
	}{
		{Action{ID: "a1", Action: ActionChoose, Option: "move-touched"}, trace.Line{Kind: trace.Choose, Option: "move-touched", Side: trace.SideArbiter}, ""},
		{Action{ID: "a1", Action: ActionNewGame}, trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Side: trace.SideArbiter}, ""},
		{Action{ID: "a1", Action: ActionNewGame, Value: "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}, trace.Line{Kind: trace.Arbiter, Action: trace.ActionNewGame, Value: "4k3/8/8/8/8/8/8/4K2R w K - 0 1", Side: trace.SideArbiter}, ""},
		{Action{ID: "a1", Action: ActionAnnul}, trace.Line{Kind: trace.Arbiter, Action: trace.ActionAnnul, Side: trace.SideArbiter}, ""},
		{Action{ID: "a1", Action: ActionLaws, Value: "nycc"}, trace.Line{Kind: trace.Arbiter, Action: trace.ActionLaws, Value: "nycc", Side: trace.SideArbiter}, ""},
		{Action{ID: "a1", Action: ActionResult, Value: "1/2-1/2"}, trace.Line{Kind: trace.Arbiter, Action: trace.ActionResult, Value: "1/2-1/2", Side: trace.SideArbiter}, ""},
		{Action{ID: "", Action: ActionAnnul}, trace.Line{}, "action id"},
		{Action{ID: "a/1", Action: ActionAnnul}, trace.Line{}, "action id"},
		{Action{ID: "a1", Action: ActionChoose, Option: "Stand!"}, trace.Line{}, "option"},
		{Action{ID: "a1", Action: ActionChoose, Option: "stand", Value: "x"}, trace.Line{}, "takes no value"},
		{Action{ID: "a1", Action: ActionNewGame, Value: "not a fen"}, trace.Line{}, "want a legal set-up as FEN"},
		{Action{ID: "a1", Action: ActionNewGame, Value: "8/8/8/8/8/8/3kK3/8 w - - 0 1"}, trace.Line{}, "kings"},
		{Action{ID: "a1", Action: ActionNewGame, Value: "4k3/8/8/8/8/8/8/4K2P w - - 0 1"}, trace.Line{}, "pawn"},
		{Action{ID: "a1", Action: ActionAnnul, Value: "x"}, trace.Line{}, "takes no value"},
		{Action{ID: "a1", Action: ActionAnnul, Option: "x"}, trace.Line{}, "takes no option"},
		{Action{ID: "a1", Action: ActionLaws, Value: "fide1999"}, trace.Line{}, "laws"},
		{Action{ID: "a1", Action: ActionResult, Value: "1-1"}, trace.Line{}, "want 1-0, 0-1 or 1/2-1/2"},
		{Action{ID: "a1", Action: "resign"}, trace.Line{}, `action "resign"`},
	} {
		l, err := c.a.Line()
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%+v: %v", c.a, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%+v: error %v, want %q", c.a, err, c.err)
		case c.err == "" && l != c.want:
			t.Errorf("%+v: line %+v, want %+v", c.a, l, c.want)
		}
		if c.err != "" {
			continue
		}
		// ActionFor is the inverse.
		back, err := ActionFor(c.a.ID, l)
		if err != nil || back.ID != c.a.ID || back.Action != c.a.Action || back.Option != c.a.Option || back.Value != c.a.Value {
			t.Errorf("ActionFor(%+v) = %+v, %v", l, back, err)
		}
	}
	if _, err := ActionFor("a1", trace.Line{Kind: trace.Lift}); err == nil {
		t.Error("ActionFor took a player's lift")
	}
	if _, err := ActionFor("a1", trace.Line{Kind: trace.Choose, Option: "stand", Side: trace.SideBlack}); err == nil {
		t.Error("ActionFor chose as a player")
	}
}

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		payload, err string
	}{
		{`{"v":1,"seq":3}`, ""},
		{`{"v":2,"seq":"three"}`, "protocol version 2: this boardd speaks version 1"},
		{`{"v":2,"seq":3}`, "protocol version 2"},
		{`{"seq":3}`, `no "v"`},
		{`[1]`, "cannot unmarshal array"},
		{`not json`, "invalid character"},
	} {
		var a Ack
		err := Decode([]byte(c.payload), &a, "ack")
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.payload, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.payload, err, c.err)
		}
	}
}

func TestDecodeEvent(t *testing.T) {
	at := time.Date(2026, 3, 1, 19, 30, 0, 0, time.UTC)
	rep := report.Report{Type: report.Move, T: 1500 * time.Millisecond, Side: "white", UCI: "e2e4", SAN: "e4", FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}
	good := []Event{
		{Board: "b1", Seq: 7, Prev: 3, At: &at, Kind: EventReport, Report: rep.AppendJSON(nil)},
		{Board: "b1", Seq: 1, Kind: EventHeader, Header: &Header{Game: 1, Laws: "fide2023", Tags: map[string]string{"Date": "2026.03.01"}}},
		{Board: "b1", Seq: 9, Prev: 7, Kind: EventTag, Tag: &Tag{Name: "Date", Value: "2026.03.01"}},
	}
	for _, e := range good {
		data, err := Encode(&e)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeEvent(data, "b1")
		if err != nil {
			t.Errorf("%s: %v", data, err)
			continue
		}
		again, _ := Encode(&got)
		if !bytes.Equal(again, data) {
			t.Errorf("round trip:\n%s\n%s", data, again)
		}
	}
	if r, err := DecodeReport(good[0].Report); err != nil || r.SAN != "e4" || r.T != 1500*time.Millisecond || r.FEN != rep.FEN {
		t.Errorf("DecodeReport: %+v, %v", r, err)
	}
	for _, c := range []struct {
		payload, err string
	}{
		{`{"v":1,"board":"b2","seq":2,"kind":"tag","tag":{"name":"x"}}`, `names board "b2"`},
		{`{"v":1,"board":"b1","seq":0,"kind":"tag","tag":{"name":"x"}}`, "no seq"},
		{`{"v":1,"board":"b1","seq":4,"prev":4,"kind":"tag","tag":{"name":"x"}}`, "does not come before"},
		{`{"v":1,"board":"b1","seq":4,"kind":"header","header":{"game":1}}`, "without its law-set"},
		{`{"v":1,"board":"b1","seq":4,"kind":"report","report":{"t":3}}`, `no "type"`},
		{`{"v":1,"board":"b1","seq":4,"kind":"report"}`, "no report"},
		{`{"v":1,"board":"b1","seq":4,"kind":"tag"}`, "without its name"},
		{`{"v":1,"board":"b1","seq":4,"kind":"input"}`, `unknown kind "input"`},
	} {
		_, err := DecodeEvent([]byte(c.payload), "b1")
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.payload, err, c.err)
		}
	}
}

// FuzzDecodeEvent: any payload is read or refused with an error, never a
// panic; what is read encodes and reads back the same.
func FuzzDecodeEvent(f *testing.F) {
	rep := report.Report{Type: report.Irregularity, Kind: "touch-move", Law: "sarratt1808:7", Offender: "white", Chooser: "black",
		Options: []report.Option{{ID: "stand", Squares: []string{"g1", "e4"}}}}
	for _, e := range []Event{
		{Board: "b1", Seq: 7, Prev: 3, Kind: EventReport, Report: rep.AppendJSON(nil)},
		{Board: "b1", Seq: 1, Kind: EventHeader, Header: &Header{Game: 2, Laws: "nycc", FEN: "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}},
	} {
		data, _ := Encode(&e)
		f.Add(data)
	}
	f.Add([]byte(`{"v":1,"board":"b1","seq":18446744073709551615,"prev":1,"kind":"tag","tag":{"name":"Date","value":""}}`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		e, err := DecodeEvent(payload, "b1")
		if err != nil {
			return
		}
		data, err := Encode(&e)
		if err != nil {
			t.Fatalf("read %s but cannot encode it: %v", payload, err)
		}
		back, err := DecodeEvent(data, "b1")
		if err != nil {
			t.Fatalf("%s encodes to %s, which does not read back: %v", payload, data, err)
		}
		a, _ := json.Marshal(e)
		b, _ := json.Marshal(back)
		if !bytes.Equal(a, b) {
			t.Fatalf("round trip differs:\n%s\n%s", a, b)
		}
	})
}

// TestStateSaid: the lines a board said ride its state message and read
// back as sent; a state without them (an older board's) reads as none, and
// a state with fields this boardd does not know (a newer board's) reads
// still, its lines with it.
func TestStateSaid(t *testing.T) {
	since := time.Date(2026, 3, 1, 19, 0, 0, 123456789, time.UTC)
	tests := []struct {
		name    string
		payload string // "" to encode st
		st      State
		want    []Said
		since   time.Time
	}{
		{"round trip", "", State{Board: "b1", Seq: 4, Said: []Said{{N: 1, Text: "Springer Gustav eins Felix drei", Lang: "de"}, {N: 2, Text: "knight from g8 to f6", Lang: "en"}}, SaidSince: since},
			[]Said{{N: 1, Text: "Springer Gustav eins Felix drei", Lang: "de"}, {N: 2, Text: "knight from g8 to f6", Lang: "en"}}, since},
		{"an older board's", `{"v":1,"board":"b1","seq":4,"state":{"board":"b1"},"pgn":""}`, State{}, nil, time.Time{}},
		{"a newer board's", `{"v":1,"board":"b1","seq":4,"said":[{"n":7,"text":"e4","lang":"en","pitch":3}],"said_since":"2026-03-01T19:00:00.123456789Z","mood":"calm"}`, State{},
			[]Said{{N: 7, Text: "e4", Lang: "en"}}, since},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.payload)
			if tc.payload == "" {
				var err error
				if data, err = Encode(&tc.st); err != nil {
					t.Fatal(err)
				}
			}
			var got State
			if err := Decode(data, &got, "state from b1"); err != nil {
				t.Fatalf("%s: %v", data, err)
			}
			if len(got.Said) != len(tc.want) || !got.SaidSince.Equal(tc.since) {
				t.Fatalf("%s: said %+v since %v, want %+v since %v", data, got.Said, got.SaidSince, tc.want, tc.since)
			}
			for i := range tc.want {
				if got.Said[i] != tc.want[i] {
					t.Errorf("line %d: %+v, want %+v", i, got.Said[i], tc.want[i])
				}
			}
			if tc.payload == "" {
				if again, _ := Encode(&got); !bytes.Equal(again, data) {
					t.Errorf("round trip:\n%s\n%s", data, again)
				}
			}
			if len(tc.want) == 0 && bytes.Contains(data, []byte("said")) {
				t.Errorf("a state without lines names them: %s", data)
			}
		})
	}
}
