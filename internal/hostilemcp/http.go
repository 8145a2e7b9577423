package hostilemcp

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// HugeBody is the size of the result body of the "huge-body" HTTP mode.
const HugeBody = 400 << 20

// Handler serves mode over Streamable HTTP (one session). Calls are
// answered on an event stream, so that the server can send its own
// requests (elicitations) on the stream of the call that caused them. In
// mode "redirect" every POST is answered with a 307 to redirectTo. In mode
// "huge-body" a tools/call is answered with a JSON body of [HugeBody]
// bytes, and in "huge-event" with one event of that size.
func Handler(mode, redirectTo string) http.Handler {
	shared := newPeer(mode, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mode == "redirect" {
			http.Redirect(w, r, redirectTo, http.StatusTemporaryRedirect)
			return
		}
		if r.Method != http.MethodPost {
			http.Error(w, "no stream", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m msg
		if json.Unmarshal(body, &m) != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if m.Method == "" {
			shared.answered(m)
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if m.Method == "tools/call" && (mode == "huge-body" || mode == "huge-event") {
			writeHuge(w, m, mode == "huge-event")
			return
		}
		if m.Method != "tools/call" {
			r, _ := shared.handle(m)
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		var wmu sync.Mutex
		flusher, _ := w.(http.Flusher)
		send := func(v any) error {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			wmu.Lock()
			defer wmu.Unlock()
			if _, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", b); err != nil {
				return err
			}
			if flusher != nil {
				flusher.Flush()
			}
			return nil
		}
		// the call's own peer: its requests go on this stream, answers
		// come back through the shared pending map
		p := &peer{mode: mode, send: send}
		p.pending = shared.pending
		p.share(shared)
		res, _ := p.handle(m)
		_ = send(res)
	})
}

// share makes p use shared's request ids and pending answers.
func (p *peer) share(shared *peer) {
	p.parent = shared
}

// writeHuge answers m with a result of HugeBody bytes, written in pieces.
func writeHuge(w http.ResponseWriter, m msg, event bool) {
	chunk := strings.Repeat("x", 1<<20)
	if event {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message\ndata: ")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	if _, err := fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, m.ID); err != nil {
		return
	}
	for range HugeBody / len(chunk) {
		if _, err := io.WriteString(w, chunk); err != nil {
			return
		}
	}
	io.WriteString(w, `"}]}}`)
	if event {
		io.WriteString(w, "\n\n")
	}
}
