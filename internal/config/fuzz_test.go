package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"
)

// toAny converts a parsed node to what encoding/json produces with
// UseNumber, keeping the last of duplicate keys as encoding/json does.
func toAny(n *node) any {
	switch n.kind {
	case kindNull:
		return nil
	case kindBool:
		return n.b
	case kindNumber:
		return json.Number(n.str)
	case kindString:
		return n.str
	case kindArray:
		out := make([]any, 0, len(n.elems))
		for _, e := range n.elems {
			out = append(out, toAny(e))
		}
		return out
	}
	out := make(map[string]any, len(n.members))
	for _, m := range n.members {
		out[m.key] = toAny(m.val)
	}
	return out
}

// FuzzParseJSON checks the hand-written parser against encoding/json: the
// same documents are valid (except that the parser also rejects invalid
// UTF-8 and deep nesting) and they decode to the same values.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `true`, `-0.5e+10`, `"a\u00e9\n"`, `{"a": [1, {"b": null}]}`,
		fullExample, starter, `{"a":1,}`, `[1 2]`, `01`, `"\ud800"`, "\"\x01\"", ` `, `{"a" 1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, serr := parseJSON(data)
		body := bytes.TrimPrefix(data, []byte("\uFEFF"))
		valid := json.Valid(body)
		if serr == nil && !valid {
			t.Fatalf("parser accepts what encoding/json rejects: %q", data)
		}
		if serr != nil {
			if valid && utf8.Valid(body) && serr.msg != "nesting too deep" {
				t.Fatalf("parser rejects valid JSON %q: %s", data, serr.msg)
			}
			if serr.off < 0 || serr.off > len(data) {
				t.Fatalf("error offset %d out of range", serr.off)
			}
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := toAny(n); !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v, encoding/json %#v", got, want)
		}
		// Parse must never panic on anything the parser accepts.
		_, _ = Parse(data, "f.json")
	})
}

// FuzzSchemaAgrees checks that Parse and the JSON Schema agree on
// documents that are valid JSON, apart from the documented cases only
// Parse can see (see Schema).
func FuzzSchemaAgrees(f *testing.F) {
	for _, s := range goodDocs {
		f.Add([]byte(s))
	}
	for _, s := range moreBadDocs {
		f.Add([]byte(s))
	}
	for _, c := range errorCases {
		f.Add([]byte(c.doc))
	}
	v := compileSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, serr := parseJSON(data); serr != nil || bytes.HasPrefix(data, []byte("\uFEFF")) {
			return
		}
		_, goErr := Parse(data, "f.json")
		schemaErr := v.ValidateJSON(data)
		if (goErr == nil) == (schemaErr == nil) {
			return
		}
		if goErr != nil {
			msg := goErr.Error()
			for _, documented := range []string{"duplicate key", "too large", "must be at most 2GiB, got \"", "invalid URL", "must be at least 512KiB (0 or absent: the default, 64MiB), got \"",
				"which is not a mount's \"guest\"", "is given twice (names are case-insensitive)",
				"so the rule would match no tool", "the server's working directory", "keep it out of modebox.json",
				"\" is less than one byte (0 or absent: the default)", "\" is less than 1ns (0 or absent: the default)"} {
				if bytes.Contains([]byte(msg), []byte(documented)) {
					return
				}
			}
		}
		t.Fatalf("disagree on %q\nParse:  %v\nschema: %v", data, goErr, schemaErr)
	})
}

// encodeConfig writes c back as modebox.json, in a canonical form: sizes
// and counts as numbers, durations as strings in nanoseconds, and empty
// sections present exactly when they were present (nil or not).
func encodeConfig(c *Config) []byte {
	doc := map[string]any{}
	if c.Schema != "" {
		doc["$schema"] = c.Schema
	}
	ns := func(d time.Duration) string { return strconv.FormatInt(int64(d), 10) + "ns" }
	l := c.Limits
	doc["limits"] = map[string]any{
		"timeout": ns(l.Timeout), "memory": l.Memory, "fuel": l.Fuel, "maxCalls": l.MaxCalls,
		"maxConcurrency": l.MaxConcurrency, "maxValue": l.MaxValue, "maxLog": l.MaxLog,
		"maxClockReads": l.MaxClockReads, "maxTimers": l.MaxTimers,
		// the engine-wide ones
		"maxRuns": c.Limits.MaxRuns, "maxQueued": c.Limits.MaxQueued,
		"queueTimeout": ns(c.Limits.QueueTimeout), "approvalTimeout": ns(c.Limits.ApprovalTimeout),
	}
	if c.TokenStore != "" {
		doc["tokenStore"] = c.TokenStore
	}
	if c.Tools != nil {
		tools := map[string]any{}
		for k, r := range c.Tools {
			tools[k] = map[string]any{"policy": r.Policy}
		}
		doc["tools"] = tools
	}
	if c.Flows.Sources != nil || c.Flows.Sinks != nil {
		flows := map[string]any{}
		if c.Flows.Sources != nil {
			flows["sources"] = c.Flows.Sources
		}
		if c.Flows.Sinks != nil {
			flows["sinks"] = c.Flows.Sinks
		}
		doc["flows"] = flows
	}
	if c.MCPServers != nil {
		servers := map[string]any{}
		for name, s := range c.MCPServers {
			e := map[string]any{}
			if s.Command != "" {
				e["command"] = s.Command
			}
			if s.Args != nil {
				e["args"] = s.Args
			}
			if s.Env != nil {
				e["env"] = s.Env
			}
			if s.Cwd != "" {
				e["cwd"] = s.Cwd
			}
			if s.URL != "" {
				e["url"] = s.URL
			}
			if s.Headers != nil {
				e["headers"] = s.Headers
			}
			if s.Type != "" {
				e["type"] = s.Type
			}
			if s.Disabled {
				e["disabled"] = true
			}
			if s.Timeout != 0 {
				e["timeout"] = ns(s.Timeout)
			}
			servers[name] = e
		}
		doc["mcpServers"] = servers
	}
	for k, raw := range map[string]json.RawMessage{"shell": c.Shell, "fetch": c.Fetch, "fs": c.FS, "mcp": c.MCP} {
		if raw != nil {
			doc[k] = raw
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep raw sections byte for byte ("&" stays "&")
	if err := enc.Encode(doc); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// FuzzConfigRoundTrip checks what Parse promises about the configurations
// it accepts: every accepted file yields a Config that is consistent
// (limits in range, policies known, every server either a command or a
// URL), that written back out parses again to the same Config and passes
// the JSON Schema, and parsing the same bytes twice gives the same result.
// Refusals always carry a message and a position inside the file.
func FuzzConfigRoundTrip(f *testing.F) {
	for _, s := range goodDocs {
		f.Add([]byte(s))
	}
	for _, c := range errorCases {
		f.Add([]byte(c.doc))
	}
	f.Add([]byte(fullExample))
	f.Add([]byte(starter))
	v := compileSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "f.json")
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || ce.Message == "" || ce.File != "f.json" {
				t.Fatalf("refusal is not a config error with a message: %#v", err)
			}
			if ce.Line < 0 || ce.Column < 0 || ce.Line > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("position %d:%d outside the file", ce.Line, ce.Column)
			}
			return
		}
		again, err := Parse(data, "f.json")
		if err != nil || !reflect.DeepEqual(cfg, again) {
			t.Fatalf("parsing twice differs: %v", err)
		}
		l := cfg.Limits
		if l.Timeout < 0 || l.Memory < 0 || l.Memory > maxMemory || l.MaxCalls < 0 || l.MaxConcurrency < 0 ||
			l.MaxValue < 0 || l.MaxLog < 0 || l.MaxClockReads < 0 || l.MaxTimers < 0 || l.Fuel > maxNumber ||
			cfg.Limits.MaxRuns < 0 || cfg.Limits.MaxQueued < 0 || cfg.Limits.QueueTimeout < 0 || cfg.Limits.ApprovalTimeout < 0 {
			t.Fatalf("limits out of range: %+v", l)
		}
		for p, r := range cfg.Tools {
			if patternProblem(p) != "" || !slices.Contains(policies, r.Policy) {
				t.Fatalf("tool rule %q: %+v", p, r)
			}
		}
		for name, s := range cfg.MCPServers {
			if (s.Command == "") == (s.URL == "") {
				t.Fatalf("server %q is neither or both a command and a URL: %+v", name, s)
			}
			if s.Timeout < 0 {
				t.Fatalf("server %q: negative timeout", name)
			}
		}
		out := encodeConfig(cfg)
		back, err := Parse(out, "f.json")
		if err != nil {
			t.Fatalf("accepted config does not re-validate: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(compactSections(cfg), compactSections(back)) {
			t.Fatalf("round trip changed the config:\n%+v\n%+v\n%s", cfg, back, out)
		}
		if err := v.ValidateJSON(out); err != nil {
			t.Fatalf("written back, the config fails its JSON Schema: %v\n%s", err, out)
		}
	})
}

// compactSections returns a copy of c whose raw sections (shell, fetch,
// fs, mcp) are compacted, so that configs differing only in the
// whitespace of those sections compare equal.
func compactSections(c *Config) *Config {
	out := *c
	out.Warnings = nil // a bare number written back as a string warns no more
	for _, p := range []*json.RawMessage{&out.Shell, &out.Fetch, &out.FS, &out.MCP} {
		if *p != nil {
			var b bytes.Buffer
			if err := json.Compact(&b, *p); err != nil {
				panic(err)
			}
			*p = b.Bytes()
		}
	}
	return &out
}
