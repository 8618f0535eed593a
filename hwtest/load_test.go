package hwtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/hall/mosquittotest"
)

// The club hall's load run (issue 14). By default a short smoke run: a few
// boards for a few seconds, the hall in this process. With BOARDD_LOAD=1 the
// full run: the boardd binary's `boardd hall` as a process of its own (its
// CPU and memory measured), the shipped ACL with a password per board, and
// for each board count in BOARDD_LOAD_BOARDS (default 50,100,200,400) a
// minute (BOARDD_LOAD_SECONDS) of blitz, a move every 2 s on every board.
// At 200 boards the hall must see every move within 100 ms (p99), none lost
// or doubled. BOARDD_LOAD_DIR puts the boards' state directories (their
// journals) there: /dev/shm takes the shared disk out of the measurement.
//
//	BOARDD_LOAD=1 go test ./hwtest -run TestLoad -v -timeout 30m
func TestLoad(t *testing.T) {
	acl := filepath.Join("..", "systemd", "mosquitto", "boardd.acl")
	games, err := loadGames()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("BOARDD_LOAD") == "" {
		rig := loadStartRig(t, LoadRigOptions{Dir: t.TempDir(), Boards: 6, ACLFile: acl})
		res, err := RunLoad(t.Context(), LoadOptions{
			Boards: 6, MoveEvery: 500 * time.Millisecond, Duration: 3 * time.Second, Games: games,
			Broker: rig.BrokerConfig, Verifier: rig.Verifier, Hall: rig.HallURL, Dir: t.TempDir(),
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Log(res)
		if res.Moves < 6*4 {
			t.Errorf("%d moves made, want at least %d", res.Moves, 6*4)
		}
		if len(res.Latency) < res.Moves {
			t.Errorf("%d latencies for %d moves", len(res.Latency), res.Moves)
		}
		if res.Lost != 0 || res.Doubled != 0 {
			t.Errorf("lost %d, doubled %d", res.Lost, res.Doubled)
		}
		return
	}
	counts := []int{50, 100, 200, 400}
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
	seconds := 60
	if v := os.Getenv("BOARDD_LOAD_SECONDS"); v != "" {
		if seconds, err = strconv.Atoi(v); err != nil || seconds <= 0 {
			t.Fatalf("BOARDD_LOAD_SECONDS=%q: want seconds", v)
		}
	}
	bin := filepath.Join(t.TempDir(), "boardd")
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	if out, err := exec.Command(goTool, "build", "-o", bin, "../cmd/boardd").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var table []string
	for _, n := range counts {
		t.Run(fmt.Sprintf("%d boards", n), func(t *testing.T) {
			rig := loadStartRig(t, LoadRigOptions{Dir: t.TempDir(), Boards: n, ACLFile: acl, Boardd: bin})
			ctx, cancel := context.WithTimeout(t.Context(), time.Duration(seconds)*time.Second+5*time.Minute)
			defer cancel()
			spy, err := rig.BrokerConfig("hall")
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if base := os.Getenv("BOARDD_LOAD_DIR"); base != "" {
				if dir, err = os.MkdirTemp(base, "boardd-load-"); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(dir) })
			}
			res, err := RunLoad(ctx, LoadOptions{
				Boards: n, MoveEvery: 2 * time.Second, Duration: time.Duration(seconds) * time.Second, Games: games,
				Broker: rig.BrokerConfig, Verifier: rig.Verifier, Hall: rig.HallURL, HallPID: rig.HallPID, BrokerPID: rig.Broker.PID(),
				Spy: spy, Dir: dir,
			})
			if err != nil {
				t.Fatalf("%v\nhall log:\n%s", err, loadTail(rig.HallLog()))
			}
			t.Log(res)
			table = append(table, fmt.Sprintf("| %d | %d | %.0f | %s | %s | %s | %s | %d | %d | %.0f%% | %.1f MiB | %.0f%% | %.0f%% |",
				n, res.Moves, res.MessagesPerSecond(), loadMS(res.Percentile(50)), loadMS(res.Percentile(99)), loadMS(res.Percentile(100)),
				loadMS(loadPercentile(res.BrokerLeg, 99)), res.Lost, res.Doubled, 100*res.HallCPU, loadMiB(res.HallPeak), 100*res.BrokerCPU, 100*res.DriverCPU))
			if res.Lost != 0 || res.Doubled != 0 {
				t.Errorf("lost %d, doubled %d", res.Lost, res.Doubled)
			}
			if n <= 200 && res.Percentile(99) >= 100*time.Millisecond {
				t.Errorf("p99 %v at %d boards, want under 100 ms", res.Percentile(99), n)
			}
		})
	}
	t.Logf("\n| boards | moves | messages/s | p50 | p99 | max | p99 to the broker's clients | lost | doubled | hall CPU | hall peak RSS | broker CPU | boards' CPU |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n%s", strings.Join(table, "\n"))
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
