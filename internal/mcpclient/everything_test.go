package mcpclient

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/config"
)

func TestEverythingTools(t *testing.T) {
	m := startManager(t, map[string]config.Server{
		"everything": npmServer(t, pkgEverything, "stdio"),
	}, Options{})
	if f := m.Failures(); len(f) != 0 {
		t.Fatalf("Failures = %v", f)
	}
	names := toolNames(m, "everything")
	if len(names) < 10 || !hasTool(m, "everything", "echo") || !hasTool(m, "everything", "get-sum") {
		t.Fatalf("tools = %v; want ≥ 10 including echo and get-sum", names)
	}
	if hasTool(m, "everything", "trigger-elicitation-request") {
		t.Error("trigger-elicitation-request is listed without an Elicitor: elicitation was advertised")
	}
	for _, tool := range m.Tools() {
		if !json.Valid(tool.InputSchema) {
			t.Errorf("%s: invalid input schema %s", tool.Name, tool.InputSchema)
		}
		if tool.Name == "get-structured-content" && (tool.OutputSchema == nil || tool.Output == nil) {
			// its calls below are checked against it
			t.Errorf("get-structured-content has no usable output schema (%v)", tool.OutputErr)
		}
		if tool.OutputErr != nil {
			t.Errorf("%s: the output schema did not compile: %v", tool.Name, tool.OutputErr)
		}
		if tool.Name == "echo" && !bytes.Contains(tool.Annotations, []byte("readOnlyHint")) {
			t.Errorf("echo annotations = %s", tool.Annotations)
		}
	}

	if got := string(mustCall(t, m, "everything", "echo", `{"message":"hello"}`)); got != `"Echo: hello"` {
		t.Errorf("echo = %s", got)
	}
	var sum string
	if err := json.Unmarshal(mustCall(t, m, "everything", "get-sum", `{"a":2,"b":40}`), &sum); err != nil || !strings.Contains(sum, "42") {
		t.Errorf("get-sum = %q, %v", sum, err)
	}
	var weather struct {
		Temperature *float64 `json:"temperature"`
		Conditions  string   `json:"conditions"`
	}
	res := mustCall(t, m, "everything", "get-structured-content", `{"location":"Chicago"}`)
	if err := json.Unmarshal(res, &weather); err != nil || weather.Temperature == nil || weather.Conditions == "" {
		t.Errorf("get-structured-content = %s (%v); want the structured value", res, err)
	}

	// Several blocks, with an image: {"content": [...]}; nil arguments are sent as {}.
	ctx := context.Background()
	res, err := m.Call(ctx, "everything", "get-tiny-image", nil)
	if err != nil {
		t.Fatal(err)
	}
	var blocks struct {
		Content []struct{ Type, MimeType, Data, Text string }
	}
	if err := json.Unmarshal(res, &blocks); err != nil {
		t.Fatalf("get-tiny-image = %.200s: %v", res, err)
	}
	var sawImage bool
	for _, b := range blocks.Content {
		if b.Type == "image" {
			png, err := base64.StdEncoding.DecodeString(b.Data)
			sawImage = err == nil && b.MimeType == "image/png" && bytes.HasPrefix(png, []byte("\x89PNG"))
		}
	}
	if !sawImage {
		t.Errorf("get-tiny-image = %.300s; want an image block with base64 PNG data", res)
	}
}

func TestEverythingErrors(t *testing.T) {
	m := startManager(t, map[string]config.Server{
		"everything": npmServer(t, pkgEverything, "stdio"),
		"off":        {Command: "/nonexistent", Disabled: true},
	}, Options{})
	ctx := context.Background()
	var te *ToolError
	_, err := m.Call(ctx, "everything", "get-sum", json.RawMessage(`{"a":"x","b":1}`))
	if !errors.As(err, &te) || te.Server != "everything" || te.Tool != "get-sum" || !strings.Contains(te.Message, "a") {
		t.Errorf("invalid get-sum: %v (%T); want *ToolError", err, err)
	}
	_, err = m.Call(ctx, "everything", "no-such-tool", nil)
	if !errors.As(err, &te) || !strings.Contains(te.Message, "no-such-tool") {
		t.Errorf("unknown tool: %v (%T); want *ToolError naming it", err, err)
	}
	_, err = m.Call(ctx, "everything", "echo", json.RawMessage(`["x"]`))
	if !errors.As(err, &te) {
		t.Errorf("array arguments: %v (%T); want *ToolError", err, err)
	}
	var se *ServerError
	for _, name := range []string{"nope", "off"} {
		_, err = m.Call(ctx, name, "x", nil)
		if !errors.As(err, &se) || !errors.Is(err, ErrUnknownServer) {
			t.Errorf("server %s: %v; want *ServerError wrapping ErrUnknownServer", name, err)
		}
	}
	if names := toolNames(m, "off"); len(names) != 0 {
		t.Errorf("disabled server lists %v", names)
	}
}

func TestCallTimeout(t *testing.T) {
	srv := npmServer(t, pkgEverything, "stdio")
	srv.Timeout = time.Second // the server's own timeout beats Options.CallTimeout
	m := startManager(t, map[string]config.Server{"everything": srv}, Options{CallTimeout: time.Minute})

	start := time.Now()
	_, err := m.Call(context.Background(), "everything", "trigger-long-running-operation", json.RawMessage(`{"duration":10,"steps":2}`))
	elapsed := time.Since(start)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Timeout != time.Second {
		t.Fatalf("err = %v (%T); want *TimeoutError after 1s", err, err)
	}
	for _, want := range []string{"everything", "trigger-long-running-operation", "1s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if elapsed > 5*time.Second {
		t.Errorf("timeout took %s", elapsed)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Error("a per-call timeout must not look like the caller's deadline")
	}

	// The caller's own shorter deadline gives its own error.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = m.Call(ctx, "everything", "trigger-long-running-operation", json.RawMessage(`{"duration":10,"steps":2}`))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("caller deadline: err = %v; want context.DeadlineExceeded", err)
	}

	// The server survives and keeps answering.
	if got := string(mustCall(t, m, "everything", "echo", `{"message":"still here"}`)); got != `"Echo: still here"` {
		t.Errorf("echo after timeout = %s", got)
	}
}

func TestElicitation(t *testing.T) {
	type ask struct {
		server, message string
		schema          json.RawMessage
	}
	var mu sync.Mutex
	var asks []ask
	action := "accept"
	elicitor := func(_ context.Context, server, message string, schema json.RawMessage) (string, map[string]any, error) {
		mu.Lock()
		defer mu.Unlock()
		asks = append(asks, ask{server, message, schema})
		if action != "accept" {
			return action, nil, nil
		}
		// A human answers slower than the per-call timeout, which must
		// not run out meanwhile.
		time.Sleep(1500 * time.Millisecond)
		return "accept", map[string]any{"name": "Ada Lovelace", "check": true}, nil
	}
	m := startManager(t, map[string]config.Server{
		"everything": npmServer(t, pkgEverything, "stdio"),
	}, Options{Elicitor: elicitor, CallTimeout: time.Second})
	if !hasTool(m, "everything", "trigger-elicitation-request") {
		if err := m.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
		if !hasTool(m, "everything", "trigger-elicitation-request") {
			t.Fatalf("trigger-elicitation-request not listed with an Elicitor: %v", toolNames(m, "everything"))
		}
	}

	res := string(mustCall(t, m, "everything", "trigger-elicitation-request", `{}`))
	mu.Lock()
	if len(asks) != 1 || asks[0].server != "everything" || !strings.Contains(asks[0].message, "Please provide") ||
		!bytes.Contains(asks[0].schema, []byte(`"properties"`)) {
		t.Errorf("elicitor saw %+v", asks)
	}
	action = "decline"
	mu.Unlock()
	if !strings.Contains(res, "Ada Lovelace") || !strings.Contains(res, "accept") {
		t.Errorf("accepted elicitation result = %s", res)
	}

	res = string(mustCall(t, m, "everything", "trigger-elicitation-request", `{}`))
	if !strings.Contains(res, "declined") {
		t.Errorf("declined elicitation result = %s", res)
	}
}
