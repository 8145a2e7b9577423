package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/modebox/modebox/internal/fuzzcorpus"
)

// fakeMemory and fakeModule give the event decoder the one thing it reads
// from the module: the size of linear memory (checked at ticks and polls).
// Every other method panics through the nil embedded interface, so a
// decoder that starts touching more of the module shows up here.
type fakeMemory struct {
	api.Memory
	size uint32
}

func (m fakeMemory) Size() uint32 { return m.size }

type fakeModule struct {
	api.Module
	mem fakeMemory
}

func (m fakeModule) Memory() api.Memory { return m.mem }

// fuzzHost records what reaches the host. Gate parks every third call and
// rejects every fifth, so that all the paths after the gate are taken; Call
// answers at once.
type fuzzHost struct {
	mu    sync.Mutex
	gated []Call
	bad   []string
}

func (h *fuzzHost) check(where string, c Call) {
	if !json.Valid(c.Args) || c.Tool == "" || c.ID <= 0 {
		h.mu.Lock()
		h.bad = append(h.bad, where+": "+c.Tool+" "+string(c.Args))
		h.mu.Unlock()
	}
}

func (h *fuzzHost) Gate(c Call, replayed bool) Verdict {
	h.check("gate", c)
	h.gated = append(h.gated, Call{ID: c.ID, Tool: c.Tool, Args: bytes.Clone(c.Args)})
	switch {
	case c.ID%5 == 0:
		return Verdict{RejectCode: "TOOL_DENIED", RejectMessage: "no"}
	case c.ID%3 == 0:
		return Verdict{Park: true, Approval: "ask"}
	}
	return Verdict{}
}

func (h *fuzzHost) Call(ctx context.Context, c Call) (json.RawMessage, error) {
	h.check("call", c)
	return json.RawMessage(`{"ok":true}`), nil
}

// newFuzzRun builds the smallest run the event decoder works on: small
// caps so that every cap is reachable from a short input, and a deadline
// far away so that the outcome does not depend on the machine's speed.
func newFuzzRun(h Host) (*run, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{
		limits: Limits{Fuel: 20, MaxCalls: 6, MaxConcurrency: 2, MaxValue: 256, MaxLog: 512}.WithDefaults(),
		host:   h,
		now:    time.Now,
		stopCh: make(chan struct{}),
		done:   make(chan struct{}),
		// buffered beyond MaxCalls: workers never block delivering
		results: make(chan completion, 64),
		pending: map[int]*pendingCall{},
		callCtx: ctx,
		hardMem: 1 << 20,
	}
	r.start = time.Now()
	r.deadline = r.start.Add(time.Hour)
	return r, cancel
}

// fuzzEvent is one decoded event of a fuzz input.
type fuzzEvent struct {
	kind, id int32
	payload  []byte
}

// decodeEvents splits a fuzz input into events: kind (1 byte, as a signed
// number so that negative and unknown kinds occur), id (1 signed byte),
// payload length (2 bytes, little endian, cut to what is left), payload.
func decodeEvents(data []byte) []fuzzEvent {
	var evs []fuzzEvent
	for len(data) >= 4 && len(evs) < 64 {
		ev := fuzzEvent{kind: int32(int8(data[0])), id: int32(int8(data[1]))}
		n := int(binary.LittleEndian.Uint16(data[2:4]))
		data = data[4:]
		n = min(n, len(data))
		ev.payload, data = data[:n], data[n:]
		evs = append(evs, ev)
	}
	return evs
}

// encodeEvents is the inverse of decodeEvents, for seeds.
func encodeEvents(evs ...fuzzEvent) []byte {
	var b []byte
	for _, ev := range evs {
		b = append(b, byte(int8(ev.kind)), byte(int8(ev.id)))
		b = binary.LittleEndian.AppendUint16(b, uint16(len(ev.payload)))
		b = append(b, ev.payload...)
	}
	return b
}

func ev(kind, id int32, payload string) fuzzEvent { return fuzzEvent{kind, id, []byte(payload)} }

// codeShape is what a run's error code may look like: a stable code is a
// short upper-case identifier. A tool may choose its own code, so this is
// the shape, not a fixed list.
var codeShape = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// fuzzEventSeeds are the seeds of FuzzEvents, also committed under
// testdata/fuzz/FuzzEvents.
var fuzzEventSeeds = map[string][]byte{
	"call-then-result": encodeEvents(ev(evCall, 1, "add\n{\"a\":1}"), ev(evTick, 0, ""), ev(evResult, 0, "3")),
	"call-no-newline":  encodeEvents(ev(evCall, 1, "add{}")),
	"call-bad-json":    encodeEvents(ev(evCall, 1, "add\n{\"a\":")),
	"call-out-of-seq":  encodeEvents(ev(evCall, 1, "a\n1"), ev(evCall, 3, "a\n2")),
	"call-empty-tool":  encodeEvents(ev(evCall, 1, "\n{}")),
	"call-bad-utf8":    encodeEvents(ev(evCall, 1, "a\xff\n{}")),
	"sleep-and-calls": encodeEvents(ev(evCall, 1, "$sleep\n{\"ms\":1e300}"), ev(evCall, 2, "x\n[]"),
		ev(evCall, 3, "y\nnull"), ev(evCall, 4, "z\n\"s\""), ev(evCall, 5, "w\n{}")),
	"too-many-calls": encodeEvents(ev(evCall, 1, "a\n1"), ev(evCall, 2, "a\n1"), ev(evCall, 3, "a\n1"),
		ev(evCall, 4, "a\n1"), ev(evCall, 5, "a\n1"), ev(evCall, 6, "a\n1"), ev(evCall, 7, "a\n1")),
	"big-args":       encodeEvents(ev(evCall, 1, "a\n\""+string(bytes.Repeat([]byte("x"), 300))+"\"")),
	"logs":           encodeEvents(ev(evLog, 0, "hello"), ev(evLog, -1, "\xff\xfe"), ev(evLog, 99, "x"), ev(evResult, 0, "")),
	"error-thrown":   encodeEvents(ev(evError, errThrown, `{"name":"Error","message":"boom","stack":"at x"}`)),
	"error-code":     encodeEvents(ev(evError, errThrown, `{"name":"ToolError","message":"m","code":"X","errorCode":"TOOL_DENIED"}`)),
	"error-thrown-v": encodeEvents(ev(evError, errThrown, `{"thrown":"number","message":"42"}`)),
	"error-bad-json": encodeEvents(ev(evError, errThrown, `{"name":`)),
	"error-classes":  encodeEvents(ev(evError, errInterrupted, ""), ev(evError, errUnformatted, ""), ev(evError, errCompile, `{"message":"x"}`)),
	"oom":            encodeEvents(ev(evError, errThrown, `{"name":"InternalError","message":"out of memory"}`)),
	"fuel":           bytes.Repeat(encodeEvents(ev(evTick, 0, "")), 25),
	"panic-print":    encodeEvents(ev(evPrint, 0, "x"), ev(evPanic, 0, "assert"), ev(evPoll, 0, "")),
	"unknown-kind":   encodeEvents(ev(99, 0, "x"), ev(-3, 0, "")),
	"sync":           encodeEvents(ev(evSync, 0, "000"), ev(evSyncRead, 3, "abc"), ev(evSyncRead, 0, "")),
	"result-big":     encodeEvents(ev(evResult, 0, string(bytes.Repeat([]byte("1"), 300)))),
	"result-bad":     encodeEvents(ev(evResult, 0, "{not json")),
	"error-forged":   encodeEvents(ev(evError, errThrown, `{"errorCode":"not a code\n","thrown":"`+string(bytes.Repeat([]byte("t"), 300))+`"}`)),
}

// FuzzEvents feeds arbitrary sequences of guest events to the host's
// decoder, at the Go level (no wasm), and checks after every event:
//
//   - the host never panics and always answers go or stop;
//   - a stop ends the run (except PANIC, which a trap follows), and an
//     ended run has an error with a code of the right shape or a value;
//   - the decoder keeps copies, never views of guest memory: scribbling
//     over the payload afterwards changes nothing the host kept;
//   - every call the host sees (gate and tool) has a non-empty tool name
//     and valid JSON arguments, and ids are unique and increasing;
//   - no event is acted on once the run has ended.
func FuzzEvents(f *testing.F) {
	for _, s := range fuzzEventSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := &fuzzHost{}
		r, cancel := newFuzzRun(h)
		defer func() {
			close(r.done) // lets sleeping timers and workers go
			cancel()
		}()
		mod := fakeModule{mem: fakeMemory{size: 64 << 10}}
		for i, e := range decodeEvents(data) {
			buf := bytes.Clone(e.payload) // the guest memory the host sees
			wasFinished := r.isFinished()
			before := snapshotRun(r)
			answer := r.event(mod, e.kind, e.id, buf)
			if e.kind == evSync {
				// a synchronous call (Intl) is answered with its reply's
				// length, which the guest reads next with evSyncRead
				if answer < 0 || int(answer) != len(r.syncReply) {
					t.Fatalf("event %d: sync answer %d for a reply of %d bytes", i, answer, len(r.syncReply))
				}
				answer = answerGo
			} else if answer != answerGo && answer != answerStop {
				t.Fatalf("event %d: answer %d", i, answer)
			}
			after := snapshotRun(r)
			if wasFinished && e.kind != evPanic && e.kind != evTick && e.kind != evPoll &&
				e.kind != evPrint && !after.equalOutcome(before) {
				t.Fatalf("event %d (kind %d) changed a finished run: %+v -> %+v", i, e.kind, before, after)
			}
			if answer == answerStop && e.kind != evPanic && !r.isFinished() {
				t.Fatalf("event %d (kind %d) answered stop but the run goes on", i, e.kind)
			}
			for j := range buf {
				buf[j] = 0xA5
			}
			if got := snapshotRun(r); !got.equal(after) {
				t.Fatalf("event %d (kind %d): the host kept a view of guest memory:\n%+v\n%+v", i, e.kind, after, got)
			}
			checkRunInvariants(t, r)
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.bad) > 0 {
			t.Fatalf("the host saw malformed calls: %q", h.bad)
		}
		for i := 1; i < len(h.gated); i++ {
			if h.gated[i].ID <= h.gated[i-1].ID {
				t.Fatalf("gated ids out of order: %d after %d", h.gated[i].ID, h.gated[i-1].ID)
			}
		}
	})
}

// runSnapshot is what a run has kept, deep-copied.
type runSnapshot struct {
	finished  bool
	undefined bool
	value     string
	err       Error
	hasErr    bool
	logs      []Log
	args      map[int]string
	panicMsg  string
}

func snapshotRun(r *run) runSnapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := runSnapshot{finished: r.finished, undefined: r.undefined, value: string(r.value),
		logs: append([]Log(nil), r.logs...), args: map[int]string{}, panicMsg: r.panicMsg}
	if r.err != nil {
		s.err, s.hasErr = *r.err, true
	}
	for id, pc := range r.pending {
		s.args[id] = pc.tool + "\n" + string(pc.args)
	}
	return s
}

func (s runSnapshot) equalOutcome(o runSnapshot) bool {
	return s.finished == o.finished && s.undefined == o.undefined && s.value == o.value &&
		s.hasErr == o.hasErr && s.err == o.err
}

func (s runSnapshot) equal(o runSnapshot) bool {
	if !s.equalOutcome(o) || len(s.logs) != len(o.logs) || len(s.args) != len(o.args) || s.panicMsg != o.panicMsg {
		return false
	}
	for i := range s.logs {
		if s.logs[i] != o.logs[i] {
			return false
		}
	}
	for k, v := range s.args {
		if o.args[k] != v {
			return false
		}
	}
	return true
}

// checkRunInvariants checks what must hold of a run after any event.
func checkRunInvariants(t *testing.T, r *run) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		if !r.finished {
			t.Fatalf("an error without the run ending: %+v", r.err)
		}
		if !codeShape.MatchString(string(r.err.Code)) {
			t.Fatalf("error code %q (%d bytes) is not a code", truncate(string(r.err.Code), 80), len(r.err.Code))
		}
		e := r.err
		if len(e.Message) > 20000 || len(e.Name) > 260 || len(e.Stack) > 16400 || len(e.Thrown) > 67 || len(e.JSCode) > 260 {
			t.Fatalf("error report fields too long: message %d, name %d, stack %d, thrown %d, code %d",
				len(e.Message), len(e.Name), len(e.Stack), len(e.Thrown), len(e.JSCode))
		}
	}
	if r.finished && r.err == nil && !r.paused && !r.undefined {
		if len(r.value) > r.limits.MaxValue {
			t.Fatalf("a value of %d bytes over the cap was kept", len(r.value))
		}
		if !json.Valid(r.value) {
			t.Fatalf("the run's value is not JSON: %q", truncate(string(r.value), 80))
		}
	}
	if r.logBytes > r.limits.MaxLog {
		t.Fatalf("%d bytes of logs kept, cap %d", r.logBytes, r.limits.MaxLog)
	}
	if r.calls > r.limits.MaxCalls+1 {
		t.Fatalf("%d calls counted, cap %d", r.calls, r.limits.MaxCalls)
	}
	if r.running > r.limits.MaxConcurrency {
		t.Fatalf("%d calls running, cap %d", r.running, r.limits.MaxConcurrency)
	}
	for _, pc := range r.pending {
		if pc.tool != "?" && !json.Valid(pc.args) {
			t.Fatalf("pending call %d kept invalid JSON %q", pc.id, pc.args)
		}
	}
}

// TestFuzzEventsCorpus checks that the committed corpus of FuzzEvents
// holds every seed above (so that it does not drift from the code), and
// rewrites it when $MODEBOX_WRITE_CORPUS is set.
func TestFuzzEventsCorpus(t *testing.T) {
	files := map[string]string{}
	for name, s := range fuzzEventSeeds {
		files[name] = fuzzcorpus.Entry([]byte(s))
	}
	fuzzcorpus.Check(t, "FuzzEvents", files)
}
