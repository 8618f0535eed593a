package hwtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/broker"
	"github.com/boardd/boardd/hall/mosquittotest"
)

// The club hall's load run (issues 14 and 23). By default two short smoke
// runs with the hall in this process: six full boards (each the daemon's own
// game, journal and uplink) and fifty light boards (the protocol's messages
// encoded once, each board its own MQTT client and session) for a few
// seconds. With BOARDD_LOAD=1 the measured runs: the boardd binary's `boardd
// hall` as a process of its own (its CPU and memory measured), the shipped
// ACL with a password per board, and for each board count in
// BOARDD_LOAD_BOARDS (light boards: 500,1000,2000; full: 50,100,200,400) a
// run of BOARDD_LOAD_SECONDS (30) at blitz pace, a move every 2 s on every
// board; BOARDD_LOAD_MODE=full runs full boards instead of light ones. Each
// run prints where the time went and what limited it; the test fails if a
// move is lost or doubled. BOARDD_LOAD_DIR puts the full boards' state
// directories (their journals) there: /dev/shm takes the shared disk out of
// the measurement. BOARDD_LOAD_FAULTS=1 (with BOARDD_LOAD=1) breaks things
// halfway through each run: the broker killed (SIGKILL) for 5 s, then the
// hall SIGKILLed and started again; the run prints each board's catch-up
// after the broker's return (p50, p99, max) beside the usual table, and
// fails if a move is lost or doubled or a board has not caught up within
// 10 s.
//
//	BOARDD_LOAD=1 go test ./hwtest -run TestLoad -v -timeout 60m
//	BOARDD_LOAD=1 BOARDD_LOAD_FAULTS=1 BOARDD_LOAD_BOARDS=2000 go test ./hwtest -run TestLoad -v -timeout 60m
func TestLoad(t *testing.T) {
	acl := filepath.Join("..", "systemd", "mosquitto", "boardd.acl")
	games, err := loadGames()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("BOARDD_LOAD") == "" {
		for _, c := range []struct {
			name   string
			light  bool
			boards int
			pace   time.Duration
			secs   int
		}{
			{"full boards", false, 6, 500 * time.Millisecond, 3},
			{"light boards", true, 50, 500 * time.Millisecond, 3},
		} {
			t.Run(c.name, func(t *testing.T) {
				rig := loadStartRig(t, LoadRigOptions{Dir: t.TempDir(), Boards: c.boards, ACLFile: acl})
				res, err := RunLoad(t.Context(), LoadOptions{
					Boards: c.boards, Light: c.light, MoveEvery: c.pace, Duration: time.Duration(c.secs) * time.Second, Games: games, Scripts: 8,
					Broker: rig.BrokerConfig, Verifier: rig.Verifier, Hall: rig.HallURL, Dir: t.TempDir(),
				})
				if err != nil {
					t.Fatal(err)
				}
				t.Log(res)
				want := c.boards * (c.secs*int(time.Second/c.pace) - 2)
				if res.Moves < want {
					t.Errorf("%d moves made, want at least %d", res.Moves, want)
				}
				if len(res.State) < res.Moves || len(res.Page) < res.Moves || len(res.Received) < res.Moves {
					t.Errorf("%d moves, but %d times to the hall, %d to its state, %d to the page", res.Moves, len(res.Received), len(res.State), len(res.Page))
				}
				if c.light && len(res.Broker) < res.Moves {
					t.Errorf("%d moves, %d acknowledged by the broker", res.Moves, len(res.Broker))
				}
				if res.Lost != 0 || res.Doubled != 0 {
					t.Errorf("lost %d, doubled %d", res.Lost, res.Doubled)
				}
			})
		}
		return
	}
	light := os.Getenv("BOARDD_LOAD_MODE") != "full"
	faulty := os.Getenv("BOARDD_LOAD_FAULTS") == "1"
	counts := []int{500, 1000, 2000}
	if !light {
		counts = []int{50, 100, 200, 400}
	}
	if v := os.Getenv("BOARDD_LOAD_BOARDS"); v != "" {
		counts = nil
		for _, f := range strings.Split(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 {
				t.Fatalf("BOARDD_LOAD_BOARDS=%q: want board counts, comma-separated", v)
			}
			counts = append(counts, n)
		}
	}
	seconds := 30
	if v := os.Getenv("BOARDD_LOAD_SECONDS"); v != "" {
		if seconds, err = strconv.Atoi(v); err != nil || seconds <= 0 {
			t.Fatalf("BOARDD_LOAD_SECONDS=%q: want seconds", v)
		}
	}
	bin := os.Getenv("BOARDD_LOAD_BOARDD")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "boardd")
		// go test puts its own go first on the PATH.
		goTool, err := exec.LookPath("go")
		if err != nil {
			t.Fatalf("the go command: %v", err)
		}
		if out, err := exec.Command(goTool, "build", "-o", bin, "../cmd/boardd").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	var results []*LoadResult
	for _, n := range counts {
		t.Run(fmt.Sprintf("%d boards", n), func(t *testing.T) {
			rig := loadStartRig(t, LoadRigOptions{Dir: t.TempDir(), Boards: n, ACLFile: acl, Boardd: bin})
			ctx, cancel := context.WithTimeout(t.Context(), time.Duration(seconds)*time.Second+10*time.Minute)
			defer cancel()
			// Full boards cannot say when the broker acknowledged their
			// moves: a second client of the broker (the spy) measures
			// that leg instead. Light boards measure it themselves.
			var spy *broker.Config
			if !light {
				if spy, err = rig.BrokerConfig(LoadSpyUser); err != nil {
					t.Fatal(err)
				}
			}
			dir := t.TempDir()
			if base := os.Getenv("BOARDD_LOAD_DIR"); base != "" {
				if dir, err = os.MkdirTemp(base, "boardd-load-"); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(dir) })
			}
			var faults func(context.Context) (time.Time, error)
			if faulty {
				faults = func(ctx context.Context) (time.Time, error) { return loadFaults(ctx, t, rig) }
			}
			res, err := RunLoad(ctx, LoadOptions{
				Boards: n, Light: light, MoveEvery: 2 * time.Second, Duration: time.Duration(seconds) * time.Second, Games: games,
				Broker: rig.BrokerConfig, Verifier: rig.Verifier, Hall: rig.HallURL, HallPID: rig.HallPID, BrokerPID: rig.Broker.PID(),
				Spy: spy, Dir: dir, BrokerLog: rig.Broker.Log, Faults: faults,
			})
			if err != nil {
				t.Fatalf("%v\nhall log:\n%s", err, loadTail(rig.HallLog()))
			}
			t.Log(res)
			results = append(results, res)
			if res.Lost != 0 || res.Doubled != 0 {
				t.Errorf("lost %d, doubled %d", res.Lost, res.Doubled)
			}
			t.Logf("p99 board -> hall state %s: under 100 ms: %v", loadMS(res.Percentile(99)), res.Percentile(99) < 100*time.Millisecond)
			if faulty {
				t.Log(res.FaultLine())
				if res.FaultLate > 0 || len(res.FaultCatchUp) == 0 || percentile(res.FaultCatchUp, 100) > 10*time.Second {
					t.Errorf("not every board caught up within 10 s of the broker's return: %s", res.FaultLine())
				}
				if res.BroadcastGames != n || res.BroadcastPlies != res.MadePlies {
					t.Errorf("the broadcast is not whole: %s", res.FaultLine())
				}
			}
		})
	}
	t.Logf("\n%s", loadTableRows(results))
	if faulty {
		for _, r := range results {
			t.Log(r.FaultLine())
		}
	}
}

// loadFaults kills the broker for 5 s, and once it is back SIGKILLs the
// hall and starts it again; it returns when the broker came back.
func loadFaults(ctx context.Context, t *testing.T, rig *LoadRig) (time.Time, error) {
	t.Logf("faults: killing the broker for 5 s")
	if err := rig.Broker.Kill(); err != nil {
		return time.Time{}, err
	}
	select {
	case <-time.After(5 * time.Second):
	case <-ctx.Done():
	}
	if err := rig.Broker.Restart(); err != nil {
		return time.Time{}, fmt.Errorf("restarting the broker: %w", err)
	}
	back := time.Now()
	t.Logf("faults: the broker is back; SIGKILLing the hall and starting it again")
	if err := rig.KillHall(); err != nil {
		return back, err
	}
	t.Logf("faults: the hall answers again %s after the broker's return", time.Since(back).Round(time.Millisecond))
	return back, nil
}

func loadStartRig(t *testing.T, o LoadRigOptions) *LoadRig {
	t.Helper()
	r, err := StartLoadRig(o)
	if errors.Is(err, mosquittotest.ErrNotInstalled) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// loadGames are the corpus's games for load runs.
func loadGames() ([]Game, error) {
	f, err := os.Open(filepath.Join("testdata", "lichess-2024-12.pgn"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadPGN(f, "lichess-2024-12.pgn")
}

func loadTail(s string) string {
	if len(s) > 3000 {
		return "…" + s[len(s)-3000:]
	}
	return s
}
