package console

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"time"
)

// WriteJSON answers with v as JSON and the status, never cached. The hall
// answers the same way.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		data = []byte(`{"error":"encoding the answer failed","status":500}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

// WriteError answers with the JSON error {"error","status"}.
func WriteError(w http.ResponseWriter, status int, format string, args ...any) {
	WriteJSON(w, status, map[string]any{"error": fmt.Sprintf(format, args...), "status": status})
}

// ServePage answers with an HTML page from fsys, revalidated on each load.
func ServePage(w http.ResponseWriter, fsys fs.FS, name string) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		WriteError(w, http.StatusInternalServerError, "page %s missing: %v", name, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(data)
}

// BeginEventStream starts a Server-Sent Events answer: it lifts the
// server's read and write deadlines (a stream has no end to meet), sets the
// headers and sends them. It reports whether events should follow (not for
// a HEAD request).
func BeginEventStream(w http.ResponseWriter, r *http.Request) bool {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return r.Method != http.MethodHead
}
