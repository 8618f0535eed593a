package hwtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// loadSummary is the part of the hall's board summary a run follows.
type loadSummary struct {
	ID         string `json:"id"`
	Heard      bool   `json:"heard"`
	Online     bool   `json:"online"`
	Moves      int    `json:"moves"`
	Duplicates uint64 `json:"duplicates"`
	Gaps       uint64 `json:"gaps"`
}

type loadOverview struct {
	Stats struct {
		Messages uint64 `json:"messages"`
	} `json:"stats"`
	Boards []loadSummary `json:"boards"`
}

// loadHallMove is a move as the hall holds it, with when it took it.
type loadHallMove struct {
	UCI      string    `json:"uci"`
	Received time.Time `json:"received"`
	Applied  time.Time `json:"applied"`
}

// loadFollowHall reads the hall's event stream and calls fn with each board
// summary and the time it arrived.
func loadFollowHall(ctx context.Context, base string, fn func(loadSummary, time.Time)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/hall/events", nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /api/hall/events: %s", res.Status)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	event := ""
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) > 7 && string(line[:7]) == "event: ":
			event = string(line[7:])
		case len(line) > 6 && string(line[:6]) == "data: ":
			now := time.Now()
			data := line[6:]
			switch event {
			case "board":
				var s loadSummary
				if err := json.Unmarshal(data, &s); err == nil {
					fn(s, now)
				}
			case "hall":
				var h loadOverview
				if err := json.Unmarshal(data, &h); err == nil {
					for _, s := range h.Boards {
						fn(s, now)
					}
				}
			}
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("the hall ended its event stream")
}

func loadHallOverview(ctx context.Context, base string) (*loadOverview, error) {
	var o loadOverview
	if err := loadGetJSON(ctx, base+"/api/hall", &o); err != nil {
		return nil, err
	}
	return &o, nil
}

// loadHallMovesAll reads every board's moves from the hall, eight at a time.
func loadHallMovesAll(ctx context.Context, base string, boards []*loadBoard) (map[string][]loadHallMove, error) {
	out := make([][]loadHallMove, len(boards))
	errs := make([]error, len(boards))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, lb := range boards {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = loadGetJSON(ctx, base+"/api/hall/boards/"+lb.id+"/moves", &out[i])
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m := make(map[string][]loadHallMove, len(boards))
	for i, lb := range boards {
		m[lb.id] = out[i]
	}
	return m, nil
}

func loadGetJSON(ctx context.Context, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("hwtest: load: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("hwtest: load: GET %s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		return fmt.Errorf("hwtest: load: GET %s: %w", url, err)
	}
	return nil
}

// loadClockTick is Linux's USER_HZ, the unit of /proc's times.
const loadClockTick = 100

// loadMeter measures processes' CPU and the whole machine's over a window.
type loadMeter struct {
	pids        []int
	cpu0        map[int]time.Duration
	busy0, all0 uint64
}

// loadUse is what a meter measured.
type loadUse struct {
	cpu       map[int]float64 // share of one core
	rss, peak map[int]int64
	machine   float64 // share of every core
	cores     int
	load      float64
}

func startLoadMeter(pids ...int) *loadMeter {
	m := &loadMeter{cpu0: map[int]time.Duration{}}
	for _, pid := range pids {
		if pid != 0 {
			m.pids = append(m.pids, pid)
			m.cpu0[pid], _ = loadProcCPU(pid)
		}
	}
	m.busy0, m.all0, _ = loadMachineCPU()
	return m
}

func (m *loadMeter) stop(window time.Duration) loadUse {
	u := loadUse{cpu: map[int]float64{}, rss: map[int]int64{}, peak: map[int]int64{}, cores: runtime.NumCPU()}
	for _, pid := range m.pids {
		c1, err := loadProcCPU(pid)
		if err != nil {
			continue
		}
		u.cpu[pid] = (c1 - m.cpu0[pid]).Seconds() / window.Seconds()
		u.rss[pid], u.peak[pid], _ = loadProcRSS(pid)
	}
	if busy, all, err := loadMachineCPU(); err == nil && all > m.all0 {
		u.machine = float64(busy-m.busy0) / float64(all-m.all0)
	}
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(data)); len(f) > 0 {
			u.load, _ = strconv.ParseFloat(f[0], 64)
		}
	}
	return u
}

// loadMachineCPU returns the machine's busy and total CPU time so far, in
// clock ticks, from /proc/stat's first line.
func loadMachineCPU() (busy, all uint64, err error) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, errors.New("/proc/stat: unreadable")
	}
	for i, v := range f[1:] {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, 0, errors.New("/proc/stat: unreadable")
		}
		all += n
		if i != 3 && i != 4 { // idle and iowait
			busy += n
		}
	}
	return busy, all, nil
}

// loadProcCPU returns the CPU time (user and system) process pid has used.
func loadProcCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable", pid)
	}
	f := strings.Fields(s[i+1:])
	// After the command come state (field 3), ...; utime and stime are
	// fields 14 and 15 of the whole line, 12 and 13 here.
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: too short", pid)
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable times", pid)
	}
	return time.Duration(u+st) * time.Second / loadClockTick, nil
}

// loadProcRSS returns process pid's resident memory and its high-water mark.
func loadProcRSS(pid int) (rss, peak int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch k {
		case "VmRSS":
			rss = n << 10
		case "VmHWM":
			peak = n << 10
		}
	}
	return rss, peak, nil
}

// loadBroadcast reads the hall's broadcast of every board's game
// (/broadcast/current.pgn) and returns how many games and plies it holds.
func loadBroadcast(ctx context.Context, base string) (games, plies int, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/broadcast/current.pgn", nil)
	if err != nil {
		return 0, 0, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, fmt.Errorf("hwtest: load: the broadcast: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("hwtest: load: GET /broadcast/current.pgn: %s", res.Status)
	}
	gs, err := ReadPGN(res.Body, "broadcast")
	if err != nil {
		return 0, 0, fmt.Errorf("hwtest: load: the broadcast: %w", err)
	}
	for _, g := range gs {
		plies += len(g.Moves)
	}
	return len(gs), plies, nil
}
