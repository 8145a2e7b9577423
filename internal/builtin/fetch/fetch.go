// Package fetch is the fetch() built-in: web requests made by the host
// through internal/webfetch, with the allowlist checked by the gate before
// anything runs and an approval asked per origin for other hosts.
package fetch

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/webfetch"
)

//go:embed schema.json
var inputSchema []byte

//go:embed fetch.d.ts
var decl string

// Config is fetch()'s configuration (modebox.FetchConfig).
type Config = webfetch.Config

type args struct {
	URL        string            `json:"url"`
	Method     string            `json:"method"`
	Headers    map[string]string `json:"headers"`
	Body       *string           `json:"body"`
	BodyBase64 string            `json:"bodyBase64"`
}

func (a args) request() (webfetch.Request, error) {
	r := webfetch.Request{URL: a.URL, Method: a.Method, Headers: a.Headers}
	if r.Method == "" {
		r.Method = "GET"
	}
	if a.Body != nil {
		r.Body = []byte(*a.Body)
	} else if a.BodyBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(a.BodyBase64)
		if err != nil {
			return r, err
		}
		r.Body = b
	}
	return r, nil
}

type result struct {
	Status     int               `json:"status"`
	StatusText string            `json:"statusText"`
	Headers    map[string]string `json:"headers"`
	URL        string            `json:"url"`
	Redirected bool              `json:"redirected"`
	Body       string            `json:"body"`
	Encoding   string            `json:"encoding"` // utf8 or base64
}

// session is one run's fetch state: its own transport and request count.
type session struct{ s *webfetch.Session }

func (s session) Finish(bool) *builtin.Files {
	s.s.Close()
	return nil
}

// New enables fetch() with cfg.
func New(cfg Config) (*builtin.Capability, error) {
	cl, err := webfetch.New(cfg)
	if err != nil {
		return nil, &errs.Config{Field: "Fetch", Reason: err.Error(), Err: err}
	}
	f := &builtin.Func{
		Key: "fetch", Description: "Makes a web request from the host: listed hosts directly, others with approval.",
		Schema: inputSchema, Policy: policy.Allow, Sink: true, Source: cfg.Source,
		Handler: run,
		Gate:    func(raw json.RawMessage) builtin.Gate { return gate(cl, raw) },
		// a replayed request counts against maxRequests: the cap is per
		// run, pauses included (a replayed call the gate had refused
		// counts too: the cap errs on the safe side)
		Replay: func(st builtin.Run, _ engine.Call) error {
			if s, ok := st.(session); ok {
				s.s.CountReplayed()
			}
			return nil
		},
	}
	return (&builtin.Capability{
		Name:   "fetch",
		Decl:   decl,
		Funcs:  []*builtin.Func{f},
		NewRun: func() builtin.Run { return session{cl.NewSession()} },
		Close:  func() error { return nil },
	}).Compile(), nil
}

// gate checks the URL against the allowlist before anything runs: a URL
// that can never be fetched is refused, an unlisted host needs approval,
// given per origin (the approval key is the origin for listed hosts too).
func gate(cl *webfetch.Client, raw json.RawMessage) builtin.Gate {
	var a args
	if json.Unmarshal(raw, &a) != nil {
		return builtin.Gate{} // the schema check reports it
	}
	req, err := a.request()
	if err != nil {
		return builtin.Gate{Reject: &errs.Tool{Code: codes.InvalidArgument, Message: "fetch(): body is not valid base64"}}
	}
	chk, err := cl.Check(req)
	if err != nil {
		return builtin.Gate{Reject: builtin.ToolError("fetch(): ", err)}
	}
	// approvals are per origin, listed or not: an approval for the rest
	// of the run given on a data-flow question for one listed origin
	// does not cover another
	key := "fetch " + chk.Target.URL.Scheme + "://" + chk.Target.HostPort()
	if chk.Listed {
		return builtin.Gate{ApprovalKey: key}
	}
	// the origin leads, whole: the summary may cut a long URL, host
	// included; the summary ends with "not on the fetch allowlist"
	return builtin.Gate{Reason: "fetch to " + chk.Origin + ": " + chk.Summary, ApprovalKey: key}
}

func run(ctx context.Context, c builtin.Call, raw json.RawMessage) (any, error) {
	s, err := builtin.StateOf[session]("fetch()", c)
	if err != nil {
		return nil, err
	}
	var a args
	if err := builtin.DecodeArgs("fetch()", raw, &a); err != nil {
		return nil, err
	}
	req, err := a.request()
	if err != nil {
		return nil, &errs.Tool{Code: codes.InvalidArgument, Message: "fetch(): body is not valid base64", Err: err}
	}
	// a body of more bytes than a value may hold cannot be returned
	req.MaxBytes = int64(c.MaxValue)
	resp, err := s.s.Do(ctx, req, c.Approved)
	if err != nil {
		return nil, builtin.ToolError("fetch(): ", err)
	}
	out := result{Status: resp.Status, StatusText: resp.StatusText, Headers: resp.Headers, URL: resp.URL, Redirected: resp.Redirected}
	if out.Headers == nil {
		out.Headers = map[string]string{}
	}
	if utf8.Valid(resp.Body) {
		out.Body, out.Encoding = string(resp.Body), "utf8"
	} else {
		out.Body, out.Encoding = base64.StdEncoding.EncodeToString(resp.Body), "base64"
	}
	return out, nil
}
