package integration_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/modebox/modebox"
)

func benchPauseEngine(b *testing.B) *modebox.Engine {
	b.Helper()
	fetch := modebox.Tool{Name: "fetchData", Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		var in struct {
			ID int `json:"id"`
		}
		_ = json.Unmarshal(args, &in)
		return map[string]any{"id": in.ID, "ok": true}, nil
	}}
	approve := modebox.Tool{Name: "approveMe", Policy: modebox.PolicyAsk, Handler: func(context.Context, json.RawMessage) (any, error) { return true, nil }}
	e, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{fetch, approve}, Continuations: &modebox.Continuations{Keys: [][]byte{newKey(b)}}})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// pauseResume runs code to its pause, then resumes the token approving
// everything, and returns the token size.
func pauseResume(b *testing.B, e *modebox.Engine, code string) int {
	r, err := e.Run(context.Background(), code, modebox.RunOptions{Lang: "js"})
	if err != nil || r.Status != modebox.StatusPaused {
		b.Fatalf("pause: %v %+v", err, r)
	}
	res, err := e.Resume(context.Background(), r.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil || res.Status != modebox.StatusOK {
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
	src, err := os.ReadFile("../bench/programs/pause2.js")
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
