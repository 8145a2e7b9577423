package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/jsonenc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// codeInvalidArgument marks a tool call whose arguments are wrong (the
// model's mistake: an error result, not a protocol error).
const codeInvalidArgument = modebox.CodeInvalidArgument

func (s *Server) addTools() {
	s.srv.AddTool(&mcp.Tool{
		Name:        "run",
		Description: s.runDescription(),
		InputSchema: runInputSchema,
	}, s.handleRun)
	s.srv.AddTool(&mcp.Tool{
		Name:        "search",
		Description: searchDescription,
		InputSchema: searchInputSchema,
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, s.handleSearch)
	if s.opts.ApproveTool {
		s.srv.AddTool(&mcp.Tool{
			Name:        "approve",
			Description: approveDescription,
			InputSchema: approveInputSchema,
		}, s.handleApprove)
	}
}

// decodeArgs unmarshals a call's arguments; absent arguments are {}.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

type runInput struct {
	Code string `json:"code"`
	Lang string `json:"lang,omitempty"`
	// req is the request the input came with (nil for approve).
	req *mcp.CallToolRequest
}

func (s *Server) handleRun(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in runInput
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return s.failure(codeInvalidArgument, "run: invalid arguments: "+err.Error()), nil
	}
	if strings.TrimSpace(in.Code) == "" {
		return s.failure(codeInvalidArgument, `run: "code" is required: the body of an async function, e.g. return await tools.search("words")`), nil
	}
	switch in.Lang {
	case "", "ts", "js":
	default:
		return s.failure(codeInvalidArgument, fmt.Sprintf(`run: "lang" is %q; use "ts" or "js"`, in.Lang)), nil
	}
	in.req = req
	if req.Params.RequestState != "" {
		return s.retryRun(ctx, req, in)
	}
	rt := s.routeFor(req)
	rec := s.runs.start("run")
	opts := modebox.RunOptions{Lang: modebox.Lang(in.Lang), Approver: s.recorded(rec, rt, s.approverFor(rt, req))}
	ctx, flush := withProgress(ctx, req, s.runs.observer(rec))
	run := func(ctx context.Context) (*modebox.Result, error) {
		res, err := s.eng.Run(ctx, in.Code, opts)
		flush()
		s.runs.finish(rec, res, err)
		return res, err
	}
	if rt == routeInput {
		// a downstream server's question is forwarded as input_required
		// while the run goes on (forward.go)
		return s.runLive(ctx, in, run, func(res *modebox.Result, err error) (*mcp.CallToolResult, error) {
			if err != nil {
				return s.failure(codeInvalidArgument, err.Error()), nil
			}
			return s.runResult(res, routeInput, in), nil
		}, true)
	}
	res, err := run(ctx)
	if err != nil {
		return s.failure(codeInvalidArgument, err.Error()), nil
	}
	return s.runResult(res, rt, in), nil
}

// runOutput is the structuredContent of run and approve. Its field order
// is the text mirror's: what must survive a cut comes first.
type runOutput struct {
	Status      modebox.Status        `json:"status"`
	Error       *modebox.Error        `json:"error"`
	Pending     []modebox.PendingCall `json:"pending,omitempty"`
	Token       string                `json:"token,omitempty"`
	Next        string                `json:"next,omitempty"`
	Result      json.RawMessage       `json:"result"`
	Files       *modebox.FilesReport  `json:"files,omitempty"`
	Logs        []modebox.Log         `json:"logs"`
	LogsDropped int                   `json:"logsDropped,omitempty"`
	Stats       *modebox.Stats        `json:"stats,omitempty"`
}

// runResult turns a run's result into a tool result for route rt: an
// input_required result for a paused run of a 2026-07-28 client that can
// elicit, else the run output.
func (s *Server) runResult(res *modebox.Result, rt route, in runInput) *mcp.CallToolResult {
	if res.Status == modebox.StatusPaused && rt == routeInput && res.Token != "" {
		return s.inputRequired(res, in)
	}
	out := runOutput{
		Status: res.Status, Error: res.Error, Result: res.Value, Files: res.Files,
		Logs: res.Logs, LogsDropped: res.LogsDropped, Stats: &res.Stats,
	}
	if out.Logs == nil {
		out.Logs = []modebox.Log{}
	}
	if res.Status == modebox.StatusPaused {
		out.Pending, out.Token = res.Pending, res.Token
		out.Next = pausedNext(res, s.opts.ApproveTool)
	}
	return s.toolResult(out, res.Status == modebox.StatusError)
}

func pausedNext(res *modebox.Result, approveTool bool) string {
	var calls []string
	for _, p := range res.Pending {
		calls = append(calls, "tools."+p.Tool)
	}
	msg := fmt.Sprintf("The run paused: %d call(s) need a person's approval (%s; see pending for arguments and reasons). ",
		len(res.Pending), strings.Join(calls, ", "))
	if approveTool {
		return msg + `Show them to the user and ask. Then call the approve tool with {"token": <token>, "decisions": "approve"} if the user agrees, or "deny" if not; the run continues where it stopped and no tool runs twice.`
	}
	return msg + "This server offers no way to approve them now."
}

// failure is an error result with a code and message of the server's own
// (bad arguments, a token that does not open).
func (s *Server) failure(code modebox.Code, msg string) *mcp.CallToolResult {
	return s.toolResult(runOutput{Status: modebox.StatusError, Error: &modebox.Error{Code: code, Message: msg}, Logs: []modebox.Log{}}, true)
}

// toolResult is a result with v as structuredContent and its JSON as the
// text mirror, cut at MaxResultText characters.
func (s *Server) toolResult(v any, isError bool) *mcp.CallToolResult {
	b, err := jsonenc.Marshal(v) // not json.Marshal: "Promise<number>" stays as written for the model
	if err != nil {
		// Only a value that is not JSON gets here; report it rather than panic.
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "modebox: cannot encode the result: " + err.Error()}}}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: s.mirror(string(b), "filter, slice or summarize in the program and return only the fields you need")}},
		StructuredContent: json.RawMessage(b),
		IsError:           isError,
	}
}

// mirror cuts text at MaxResultText characters (runes) and says how to
// get less.
func (s *Server) mirror(text, howToGetLess string) string {
	return s.cut(text, "structuredContent has all of it. To get less, "+howToGetLess)
}

// cut cuts text at MaxResultText characters (runes), adding a note that
// says so and then what note says.
func (s *Server) cut(text, note string) string {
	max := s.opts.MaxResultText
	n := utf8.RuneCountInString(text)
	if n <= max {
		return text
	}
	cut := 0
	for i := range text {
		if cut == max {
			text = text[:i]
			break
		}
		cut++
	}
	return text + fmt.Sprintf("\n[modebox: cut at %d of %d characters; %s.]", max, n, note)
}

type searchInput struct {
	Query     string `json:"query,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Limit     int    `json:"limit,omitempty"`
	Full      bool   `json:"full,omitempty"`
}

// handleSearch serves the search tool: with a query, the best hits (of one
// namespace, if given); without, declarations (of one namespace, or all)
// after the reference.
func (s *Server) handleSearch(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in searchInput
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return s.failure(codeInvalidArgument, "search: invalid arguments: "+err.Error()), nil
	}
	if strings.TrimSpace(in.Query) == "" {
		return s.declarations(in.Namespace), nil
	}
	var hits []modebox.SearchHit
	if in.Namespace == "" {
		hits = s.eng.Search(in.Query, modebox.SearchOptions{Limit: in.Limit, Full: in.Full})
	} else {
		if _, err := s.namespaceKeys(in.Namespace); err != nil {
			return s.failure(codeInvalidArgument, "search: "+err.Error()), nil
		}
		limit := in.Limit
		if limit <= 0 {
			limit = 5
		}
		for _, h := range s.eng.Search(in.Query, modebox.SearchOptions{Limit: 50, Full: in.Full}) {
			if s.inNamespace(h.Key, in.Namespace) && len(hits) < limit {
				hits = append(hits, h)
			}
		}
	}
	if hits == nil {
		hits = []modebox.SearchHit{}
	}
	return s.plainResult(map[string]any{"hits": hits}, "use a narrower query, a lower limit, or full: false"), nil
}

// declarations is the search tool's answer without a query, cut at
// MaxResultText characters in its structuredContent as in its text.
func (s *Server) declarations(ns string) *mcp.CallToolResult {
	var (
		d   string
		err error
	)
	if ns == "" {
		d, err = s.eng.Declarations()
	} else {
		d, err = s.namespaceDeclarations(ns)
	}
	if err != nil {
		return s.failure(codeInvalidArgument, "search: "+err.Error())
	}
	// Cut alike in both: whole, the declarations of a large toolbox
	// would be megabytes (each tool's is at most
	// tsdecl.MaxToolDeclaration, but there may be thousands).
	d = s.cut(s.reference()+d, "to get the rest, pass a namespace, or a query")
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: d}},
		StructuredContent: map[string]string{"declarations": d},
	}
}

// plainResult is a successful result of a discovery tool.
func (s *Server) plainResult(v any, howToGetLess string) *mcp.CallToolResult {
	b, err := jsonenc.Marshal(v) // not json.Marshal: "Promise<number>" stays as written for the model
	if err != nil {
		return s.failure(modebox.CodeInternal, err.Error())
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: s.mirror(string(b), howToGetLess)}},
		StructuredContent: json.RawMessage(b),
	}
}

// namespaceDeclarations returns the declarations of one namespace's
// callable tools, merged into one tools block. ns is the namespace as in
// tools.<ns>, or as registered.
func (s *Server) namespaceDeclarations(ns string) (string, error) {
	keys, global := s.namespaceKeysGlobal(ns)
	if len(keys) == 0 {
		_, err := s.namespaceKeys(ns)
		return "", err
	}
	mapped, _, _ := strings.Cut(keys[0], ".")
	var heads, members, whole []string
	merged := true
	for _, key := range keys {
		decl, ok := s.declarationOf(key)
		if !ok {
			continue // denied by a pattern: not callable
		}
		whole = append(whole, decl)
		head, member, ok := splitDeclaration(decl, mapped)
		if !ok {
			merged = false
			continue
		}
		if head != "" {
			heads = append(heads, head)
		}
		members = append(members, member)
	}
	if len(whole) == 0 {
		return "", errors.New("no callable tools in namespace " + ns)
	}
	if !merged {
		return strings.Join(whole, "\n"), nil
	}
	var b strings.Builder
	for _, h := range heads {
		b.WriteString(h)
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "declare const tools: {\n  %s: {\n%s  };\n};\n", mapped, strings.Join(members, ""))
	if global {
		fmt.Fprintf(&b, "declare const %s: typeof tools.%s;\n", mapped, mapped)
	}
	return b.String(), nil
}

// namespaceKeys returns the keys of namespace ns's callable tools, or an
// error naming the namespaces there are. ns is as in tools.<ns>, or as
// registered.
func (s *Server) namespaceKeys(ns string) ([]string, error) {
	keys, _ := s.namespaceKeysGlobal(ns)
	if len(keys) > 0 {
		return keys, nil
	}
	all := map[string]bool{}
	for _, t := range s.eng.Tools() {
		if mapped, _, ok := strings.Cut(t.Key, "."); ok {
			all[mapped] = true
		}
	}
	names := slices.Sorted(maps.Keys(all))
	return nil, fmt.Errorf("no namespace %q with callable tools; namespaces: %s", ns, strings.Join(names, ", "))
}

// namespaceKeysGlobal returns the keys of namespace ns's callable tools and
// whether the namespace is also a global.
func (s *Server) namespaceKeysGlobal(ns string) (keys []string, global bool) {
	for _, t := range s.eng.Tools() {
		if t.Policy == modebox.PolicyDeny || !s.toolInNamespace(t, ns) {
			continue
		}
		keys = append(keys, t.Key)
		global = global || t.Global
	}
	return keys, global
}

// toolInNamespace reports whether t is in namespace ns (as in tools.<ns>,
// or as registered).
func (s *Server) toolInNamespace(t modebox.ToolInfo, ns string) bool {
	mapped, _, ok := strings.Cut(t.Key, ".")
	return ok && (mapped == ns || t.Namespace == ns)
}

// inNamespace reports whether the tool with key is in namespace ns.
func (s *Server) inNamespace(key, ns string) bool {
	for _, t := range s.eng.Tools() {
		if t.Key == key {
			return s.toolInNamespace(t, ns)
		}
	}
	return false
}

// declarationOf returns the full declaration of the tool with key.
func (s *Server) declarationOf(key string) (string, bool) {
	for _, h := range s.eng.Search(strings.ReplaceAll(key, ".", " "), modebox.SearchOptions{Limit: 50, Full: true}) {
		if h.Key == key {
			return h.Declaration, h.Declaration != ""
		}
	}
	return "", false
}

// splitDeclaration splits one tool's declaration into its interfaces and
// its member lines inside "declare const tools: { ns: { ... } }".
func splitDeclaration(decl, ns string) (head, member string, ok bool) {
	const open = "declare const tools: {\n"
	i := strings.Index(decl, open)
	if i < 0 {
		return "", "", false
	}
	head = strings.TrimSpace(decl[:i])
	body := decl[i+len(open):]
	nsOpen := "  " + ns + ": {\n"
	const nsClose = "  };\n};"
	if !strings.HasPrefix(body, nsOpen) {
		return "", "", false
	}
	body = strings.TrimRight(body[len(nsOpen):], "\n")
	if !strings.HasSuffix(body, nsClose) {
		return "", "", false
	}
	return head, strings.TrimSuffix(body, nsClose), true
}
