// Package browsertest runs one headless Chromium (Debian's chromium
// package) for the browser tests of the console and the hall: it finds the
// browser, starts it with the flags a closed network needs, hands each test
// a fresh browser context (its own storage, as if it were another browser),
// and skips the tests where Chromium is not installed. It is test tooling
// and knows nothing of boardd's pages.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// NotInstalled is the skip reason when no Chromium is found.
const NotInstalled = "chromium is not installed (apt-get install -y chromium; CI installs it)"

// Browser is one Chromium shared by a package's tests. The zero value is
// ready; Close it from TestMain.
type Browser struct {
	once   sync.Once
	ctx    context.Context
	stop   func()
	err    error
	skip   string
	Width  int // window width, default 1280
	Height int // window height, default 960
	// Flags are more Chromium switches, set before the first Context: the
	// switch's name without "--" and its value (true for a bare switch),
	// e.g. "ignore-certificate-errors-spki-list" to trust a test's
	// certificate.
	Flags map[string]any
}

// Path returns the Chromium to use, or "" if none is installed.
func Path() string {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func (b *Browser) start() {
	path := Path()
	if path == "" {
		b.skip = NotInstalled
		return
	}
	dir, err := os.MkdirTemp("", "boardd-chromium-")
	if err != nil {
		b.err = err
		return
	}
	w, h := b.Width, b.Height
	if w == 0 {
		w = 1280
	}
	if h == 0 {
		h = 960
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(w, h),
	}
	for name, v := range b.Flags {
		opts = append(opts, chromedp.Flag(name, v))
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	b.ctx = ctx
	b.stop = func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(dir)
	}
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		b.err = fmt.Errorf("browsertest: starting %s: %w", path, err)
	}
}

// Context returns a fresh browser context for t, starting Chromium the
// first time; it skips t when Chromium is not installed. The context ends
// with t.
func (b *Browser) Context(t testing.TB) context.Context {
	t.Helper()
	b.once.Do(b.start)
	if b.skip != "" {
		t.Skip(b.skip)
	}
	if b.err != nil {
		t.Fatal(b.err)
	}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	return ctx
}

// Close stops Chromium if it was started.
func (b *Browser) Close() {
	if b.stop != nil {
		b.stop()
	}
}
