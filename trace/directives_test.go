package trace

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestReadDirectives: the head's comment lines give the law-set and flags,
// lines after the first input do not count, and the reader returned gives
// the trace back whole.
func TestReadDirectives(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want Directives
	}{
		{name: "laws and flags", in: "# a note\n# laws: sarratt1808\n# flags: --tournament\n# flags: --time-control 300+2\n{\"t\":0,\"lift\":\"e2\"}\n",
			want: Directives{Laws: "sarratt1808", Flags: []string{"--tournament", "--time-control", "300+2"}}},
		{name: "several law-sets: the first", in: "# laws: nycc, hastings1895\n", want: Directives{Laws: "nycc"}},
		{name: "blank lines in the head", in: "\n# laws: nycc\n\n# flags: --odds rook\n", want: Directives{Laws: "nycc", Flags: []string{"--odds", "rook"}}},
		{name: "after the first input: a note", in: "{\"t\":0,\"lift\":\"e2\"}\n# laws: nycc\n", want: Directives{}},
		{name: "no directives", in: "{\"t\":0,\"lift\":\"e2\"}", want: Directives{}},
		{name: "empty", in: "", want: Directives{}},
		{name: "a comment that is not a directive", in: "# expect: move side=white uci=e2e4\n# laws:\n", want: Directives{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, rest, err := ReadDirectives(strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if d.Laws != c.want.Laws || !reflect.DeepEqual(d.Flags, c.want.Flags) {
				t.Errorf("got %+v, want %+v", d, c.want)
			}
			again, err := io.ReadAll(rest)
			if err != nil || string(again) != c.in {
				t.Errorf("the trace read again: %q, %v; want %q", again, err, c.in)
			}
		})
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk gone") }

// TestReadDirectivesReadError: a read error is reported with the line.
func TestReadDirectivesReadError(t *testing.T) {
	_, _, err := ReadDirectives(io.MultiReader(strings.NewReader("# laws: nycc\n"), failingReader{}))
	if err == nil || !strings.Contains(err.Error(), "trace line 2") || !strings.Contains(err.Error(), "disk gone") {
		t.Errorf("err %v", err)
	}
}

// FuzzReadDirectives: any head reads without error from memory, and the
// reader returned always gives the input back whole.
func FuzzReadDirectives(f *testing.F) {
	f.Add("# laws: sarratt1808\n# flags: --tournament\n{\"t\":0,\"lift\":\"e2\"}\n")
	f.Add("#laws:nycc,fide2023\n\n#flags:\n")
	f.Add("# laws: \x00\r\n#")
	f.Fuzz(func(t *testing.T, in string) {
		d, rest, err := ReadDirectives(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		again, err := io.ReadAll(rest)
		if err != nil || string(again) != in {
			t.Fatalf("read again %q, want %q", again, in)
		}
		if strings.ContainsAny(d.Laws, " ,\n") {
			t.Errorf("law-set id %q", d.Laws)
		}
	})
}
