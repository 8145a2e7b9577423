package modebox

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

func benchPauseEngine(b *testing.B) *Engine {
	b.Helper()
	fetch := Tool{Name: "fetchData", Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		var in struct {
			ID int `json:"id"`
		}
		_ = json.Unmarshal(args, &in)
		return map[string]any{"id": in.ID, "ok": true}, nil
	}}
	approve := Tool{Name: "approveMe", Policy: PolicyAsk, Handler: func(context.Context, json.RawMessage) (any, error) { return true, nil }}
	e, err := New(EngineConfig{Tools: []Tool{fetch, approve}, Continuations: &Continuations{Keys: [][]byte{newKey(b)}}})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// pauseResume runs code to its pause, then resumes the token approving
// everything, and returns the token size.
func pauseResume(b *testing.B, e *Engine, code string) int {
	r, err := e.Run(context.Background(), code, RunOptions{Lang: "js"})
	if err != nil || r.Status != StatusPaused {
		b.Fatalf("pause: %v %+v", err, r)
	}
	res, err := e.Resume(context.Background(), r.Token, Decisions{Default: Approve})
	if err != nil || res.Status != StatusOK {
		b.Fatalf("resume: %v %+v", err, res)
	}
	return len(r.Token)
}

// BenchmarkPauseResume10: a run with 10 recorded calls pauses; its token
// is sealed, opened, claimed and the run replayed and finished.
func BenchmarkPauseResume10(b *testing.B) {
	e := benchPauseEngine(b)
	code := `let s = 0;
		for (let i = 0; i < 10; i++) s += (await tools.fetchData({id: i})).id;
		return [s, await tools.approveMe({s})];`
	var size int
	for b.Loop() {
		size = pauseResume(b, e, code)
	}
	b.ReportMetric(float64(size), "token-bytes")
}

// BenchmarkPauseResume2 runs bench/programs/pause2.js: two recorded calls
// with 1 KB arguments, then a pause.
func BenchmarkPauseResume2(b *testing.B) {
	src, err := os.ReadFile("bench/programs/pause2.js")
	if err != nil {
		b.Fatal(err)
	}
	e := benchPauseEngine(b)
	var size int
	for b.Loop() {
		size = pauseResume(b, e, string(src))
	}
	b.ReportMetric(float64(size), "token-bytes")
}
