package console

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestPostRefusals(t *testing.T) {
	r := newRig(t, rigOptions{laws: "sarratt1808", extraHost: "board.example"})
	bearer := "Bearer " + testToken
	big := `{"lift":"` + strings.Repeat("x", 5000) + `"}`
	tests := []struct {
		name    string
		path    string
		body    string
		headers map[string]string
		status  int
		want    string // in the error message
	}{
		{"not JSON content", "input", `{"lift":"e2"}`, map[string]string{"Content-Type": "text/plain"}, 415, "want application/json"},
		{"form content", "input", `lift=e2`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "want application/json"},
		{"cross-site fetch", "input", `{"lift":"e2"}`, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-site request refused"},
		{"foreign origin", "input", `{"lift":"e2"}`, map[string]string{"Origin": "http://evil.example"}, 403, "cross-site request refused"},
		{"cross-site arbiter", "arbiter", `{"action":"choose","option":"stand"}`, map[string]string{"Sec-Fetch-Site": "cross-site", "Authorization": bearer}, 403, "cross-site request refused"},
		{"rebound host name", "input", `{"lift":"e2"}`, map[string]string{"Host": "evil.example"}, 403, "host"},
		{"body not JSON", "input", `lift e2`, nil, 400, "want one JSON object"},
		{"body null", "input", `null`, nil, 400, "not null"},
		{"two objects", "input", `{"lift":"e2"}{"place":"e4"}`, nil, 400, "more than one JSON value"},
		{"body too big", "input", big, nil, 413, "over 4096 bytes"},
		{"number value", "input", `{"lift":5}`, nil, 400, `"lift": want a string`},
		{"no input", "input", `{"side":"white"}`, nil, 400, "want exactly one of lift, place, press, promote, choose"},
		{"two inputs", "input", `{"lift":"e2","place":"e4"}`, nil, 400, "want exactly one"},
		{"frame from the page", "input", `{"frame":"000000000000ffff"}`, nil, 400, `input: unknown key "frame": want lift, place, press, promote, choose, side`},
		{"time from the page", "input", `{"lift":"e2","t":5}`, nil, 400, `unknown key "t"`},
		{"bad square", "input", `{"lift":"z9"}`, nil, 400, "want a1 to h8"},
		{"bad button", "input", `{"press":"jump","side":"white"}`, nil, 400, "want jadoube, check, claim or clock"},
		{"press without side", "input", `{"press":"clock"}`, nil, 400, "want white or black"},
		{"bad promotion", "input", `{"promote":"k","side":"white"}`, nil, 400, "want q, r, b or n"},
		{"choose as arbiter without token", "input", `{"choose":"stand","side":"arbiter"}`, nil, 403, "needs the arbiter token"},
		{"lift from empty square", "input", `{"lift":"e4"}`, nil, 409, "no man stands on e4"},
		{"place on occupied square", "input", `{"place":"e2"}`, nil, 409, "a man already stands on e2"},
		{"choose with nothing pending", "input", `{"choose":"stand","side":"black"}`, nil, 409, "no choice is pending"},
		{"wrong token on input", "input", `{"lift":"e2"}`, map[string]string{"Authorization": "Bearer nope-nope-nope-nope"}, 401, "wrong arbiter token"},
		{"spectator rules", "arbiter", `{"action":"choose","option":"stand"}`, nil, 401, "arbiter token required"},
		{"wrong token", "arbiter", `{"action":"choose","option":"stand"}`, map[string]string{"Authorization": "Bearer " + strings.Repeat("f", 32)}, 401, "wrong arbiter token"},
		{"token not bearer", "arbiter", `{"action":"choose","option":"stand"}`, map[string]string{"Authorization": "Basic " + testToken}, 401, "want \"Bearer\""},
		{"empty bearer", "arbiter", `{"action":"new-game"}`, map[string]string{"Authorization": "Bearer "}, 401, `want "Bearer" and the arbiter token`},
		{"unknown action", "arbiter", `{"action":"resign"}`, map[string]string{"Authorization": bearer}, 400, `action "resign"`},
		{"no action", "arbiter", `{}`, map[string]string{"Authorization": bearer}, 400, `action ""`},
		{"unknown arbiter key", "arbiter", `{"action":"annul","why":"x"}`, map[string]string{"Authorization": bearer}, 400, `unknown key "why"`},
		{"bad option id", "arbiter", `{"action":"choose","option":"Stand Now"}`, map[string]string{"Authorization": bearer}, 400, "want an option id"},
		{"choose without option", "arbiter", `{"action":"choose"}`, map[string]string{"Authorization": bearer}, 400, "want an option id"},
		{"choose with nothing pending", "arbiter", `{"action":"choose","option":"stand"}`, map[string]string{"Authorization": bearer}, 409, "no choice is pending"},
		{"unknown law-set", "arbiter", `{"action":"laws","value":"fide1900"}`, map[string]string{"Authorization": bearer}, 400, `unknown law-set "fide1900"`},
		{"bad set-up", "arbiter", `{"action":"new-game","value":"not a fen"}`, map[string]string{"Authorization": bearer}, 400, "want a legal set-up as FEN"},
		{"illegal set-up", "arbiter", `{"action":"new-game","value":"4k3/8/8/8/8/8/8/4K2P w - - 0 1"}`, map[string]string{"Authorization": bearer}, 400, "illegal position"},
		{"bad result", "arbiter", `{"action":"result","value":"2-0"}`, map[string]string{"Authorization": bearer}, 400, "want 1-0, 0-1 or 1/2-1/2"},
		{"annul with value", "arbiter", `{"action":"annul","value":"x"}`, map[string]string{"Authorization": bearer}, 400, "takes no value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, r.api(tt.path), strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tt.headers {
				if k == "Host" {
					req.Host = v
					continue
				}
				req.Header.Set(k, v)
			}
			status, out := do(t, req)
			if status != tt.status {
				t.Errorf("status %d, want %d (%v)", status, tt.status, out)
			}
			msg, _ := out["error"].(string)
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want it to say %q", msg, tt.want)
			}
			if got, _ := out["status"].(float64); int(got) != status {
				t.Errorf("body status %v, answer status %d", out["status"], status)
			}
		})
	}
	// None of the refused inputs reached the game.
	st, err := r.local.State(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Moves) != 0 || st.Pending != nil || len(st.Occupied) != 32 {
		t.Errorf("refused inputs changed the board: %d moves, pending %v, %d men", len(st.Moves), st.Pending, len(st.Occupied))
	}
}

func TestAccepted(t *testing.T) {
	r := newRig(t, rigOptions{extraHost: "board.example"})
	tests := []struct {
		name    string
		body    string
		headers map[string]string
	}{
		{"same-origin fetch", `{"press":"jadoube","side":"white"}`, map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": r.url}},
		{"no browser headers (curl)", `{"press":"check","side":"black"}`, nil},
		{"charset in content type", `{"promote":"q","side":"white"}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}},
		{"configured host name", `{"press":"claim","side":"white"}`, map[string]string{"Host": "board.example:8080"}},
		{"rebound name with the token", `{"press":"clock","side":"black"}`, map[string]string{"Host": "evil.example", "Authorization": "Bearer " + testToken}},
		{"localhost", `{"press":"jadoube","side":"black"}`, map[string]string{"Host": "localhost:8080"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, r.api("input"), strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tt.headers {
				if k == "Host" {
					req.Host = v
					continue
				}
				req.Header.Set(k, v)
			}
			status, out := do(t, req)
			if status != http.StatusOK || out["ok"] != true {
				t.Errorf("status %d %v, want 200 ok", status, out)
			}
		})
	}
}

func TestHardwareBoardRefusesPageInputs(t *testing.T) {
	r := newRig(t, rigOptions{hardware: true})
	for _, body := range []string{`{"lift":"e2"}`, `{"press":"clock","side":"white"}`, `{"choose":"stand","side":"black"}`} {
		status, out := r.post(t, "input", body, nil)
		if status != http.StatusForbidden || !strings.Contains(out["error"].(string), "reads its sensors") {
			t.Errorf("%s: %d %v, want 403 naming the sensors", body, status, out)
		}
	}
	// The arbiter still rules on a sensor board.
	status, out := r.post(t, "arbiter", `{"action":"choose","option":"stand"}`, map[string]string{"Authorization": "Bearer " + testToken})
	if status != http.StatusConflict {
		t.Errorf("arbiter choose with nothing pending: %d %v, want 409", status, out)
	}
}

func TestNoTokenConfigured(t *testing.T) {
	r := newRig(t, rigOptions{token: "-"})
	for _, auth := range []string{"", "Bearer " + testToken} {
		status, out := r.post(t, "arbiter", `{"action":"annul"}`, map[string]string{"Authorization": auth})
		if status != http.StatusForbidden || !strings.Contains(out["error"].(string), "no arbiter token") {
			t.Errorf("auth %q: %d %v, want 403 no arbiter token", auth, status, out)
		}
	}
}

func TestGetEndpoints(t *testing.T) {
	r := newRig(t, rigOptions{})
	tests := []struct {
		method, path string
		auth         string
		status       int
		ctype        string
		want         string
	}{
		{"GET", "/", "", 200, "text/html; charset=utf-8", `<svg id="board"`},
		{"GET", "/assets/console.js", "", 200, "text/javascript; charset=utf-8", "EventSource"},
		{"GET", "/assets/console.css", "", 200, "text/css; charset=utf-8", ".blink-slow"},
		{"GET", "/assets/nope.js", "", 404, "", ""},
		{"GET", "/api/laws", "", 200, "application/json", `"id":"sarratt1808"`},
		{"GET", "/api/boards", "", 200, "application/json", `"id":"test","simulated":true`},
		{"GET", "/api/boards/test/state", "", 200, "application/json", `"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"`},
		{"GET", "/api/boards/test/pgn", "", 200, "application/x-chess-pgn; charset=utf-8", `[LawSet "fide2023"]`},
		{"GET", "/api/boards/nope/state", "", 404, "application/json", `no board \"nope\" (boards: test)`},
		{"GET", "/api/nope", "", 404, "application/json", "no such endpoint"},
		{"POST", "/api/boards/test/state", "", 405, "application/json", "want GET"},
		{"DELETE", "/api/boards/test/input", "", 405, "application/json", "want POST"},
		{"GET", "/api/boards/test/arbiter", "", 405, "application/json", "want POST"},
		{"GET", "/api/auth", "", 200, "application/json", `"role":"spectator"`},
		{"GET", "/api/auth", "Bearer " + testToken, 200, "application/json", `"role":"arbiter"`},
		{"GET", "/api/auth", "Bearer 0000000000000000", 401, "application/json", "wrong arbiter token"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path+" "+tt.auth, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, r.url+tt.path, nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tt.status {
				t.Errorf("status %d, want %d: %s", res.StatusCode, tt.status, body)
			}
			if tt.ctype != "" && res.Header.Get("Content-Type") != tt.ctype {
				t.Errorf("Content-Type %q, want %q", res.Header.Get("Content-Type"), tt.ctype)
			}
			if !strings.Contains(string(body), tt.want) {
				t.Errorf("body %.300s\nwant it to contain %s", body, tt.want)
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Errorf("security headers missing: %v", res.Header)
			}
		})
	}
}

func TestPGNDownloadNamesTheFile(t *testing.T) {
	r := newRig(t, rigOptions{})
	res, err := http.Get(r.api("pgn"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("Content-Disposition"); got != `attachment; filename="boardd-test.pgn"` {
		t.Errorf("Content-Disposition %q", got)
	}
}

func TestNewValidates(t *testing.T) {
	r := newRig(t, rigOptions{})
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"no boards", Options{}, "no board"},
		{"duplicate ids", Options{Boards: []Board{r.local, r.local}}, `two boards named "test"`},
		{"short token", Options{Boards: []Board{r.local}, Token: "short"}, "too short"},
		{"token with space", Options{Boards: []Board{r.local}, Token: "0123456789 abcdef0"}, "not printable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(tt.opts)
			if err == nil {
				s.Close()
				t.Fatalf("New accepted it")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
}
