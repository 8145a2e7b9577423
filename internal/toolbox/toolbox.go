// Package toolbox is an engine's set of callable things: the tools it was
// given and the enabled built-ins, each under the key the program calls it
// by (names mapped to JS identifiers, clashes renamed), with its compiled
// input schema and its policy and data-flow marks resolved from the
// engine's rules. It also makes what a model reads about them: the
// TypeScript declarations, the compact index and the search.
package toolbox

import (
	"context"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/jsontext"
	"github.com/modebox/modebox/internal/policy"
	"github.com/modebox/modebox/internal/schema"
	"github.com/modebox/modebox/internal/suggest"
)

// Handler runs a tool. args is the call's JSON, already validated against
// the tool's input schema. The returned value is marshalled to JSON; return
// a json.RawMessage to pass JSON through as is.
type Handler func(ctx context.Context, args json.RawMessage) (any, error)

// Tool is a function the guest can call as tools.<namespace>.<name>(args),
// or tools.<name>(args) when it has no namespace (modebox.Tool).
type Tool struct {
	// Namespace groups tools (an MCP server's name, say). It is mapped to a
	// JS identifier by MapName. "" puts the tool directly under tools.
	Namespace string
	// Name is the tool's name at its source; any string ("get-sum",
	// "create_issue", "files.read"). The guest calls it by MapName(Name),
	// and by Name itself as a property when they differ.
	Name string
	// Description is shown to the model.
	Description string
	// InputSchema is the JSON Schema of the argument; nil accepts anything.
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the result; nil means unknown.
	OutputSchema json.RawMessage
	// Handler runs the tool.
	Handler Handler
	// Policy is allow ("" means allow), ask or deny.
	Policy policy.Policy
	// Source marks a tool whose results may carry data to protect, and
	// Sink one that can send data out of the trust boundary (data flow).
	Source, Sink bool
}

// Entry is one callable thing of the toolbox: a tool, or a built-in's
// function.
type Entry struct {
	// Tool is the tool as given, with Policy, Source and Sink resolved
	// from the engine's rules.
	Tool
	// NS is the mapped namespace, JS the mapped name, Key how the program
	// reaches it (NS.JS, or JS).
	NS, JS, Key string
	// Input is InputSchema compiled.
	Input *schema.Validator
	// Func is the built-in's function, and Cap its capability; nil for
	// tools.
	Func *builtin.Func
	Cap  *builtin.Capability

	// noAlias: the original name is another tool's mapped name (a renamed
	// duplicate), so it is not a property of its own
	noAlias bool
	// baseKey is Key before the _N suffix of a renamed duplicate
	// (srv.get_data for srv.get_data_2); Key when not renamed
	baseKey string
}

// RuleNames are the names a policy or flow pattern is matched against:
// the key, the name as registered ("my-srv.get-sum", see [Entry.Original])
// and, for a tool renamed because its name maps like another's, the key
// before the _N suffix. So a rule written for srv.get_data keeps applying
// to the tool "get-data" when a tool "get_data" comes to take that key
// (and applies to both).
func (e *Entry) RuleNames() []string {
	names := []string{e.Key, e.Original()}
	if e.baseKey != "" && e.baseKey != e.Key {
		names = append(names, e.baseKey)
	}
	return names
}

// Label names the entry in messages: tools.<key>, or sh() for built-ins.
func (e *Entry) Label() string {
	if e.Func != nil {
		return e.Func.Label()
	}
	return "tools." + e.Key
}

// Call runs the entry's handler and turns its result into JSON; bc is the
// built-in's view of the call (ignored for tools).
func (e *Entry) Call(ctx context.Context, bc builtin.Call, args json.RawMessage) (json.RawMessage, error) {
	var v any
	var err error
	if e.Func != nil {
		v, err = e.Func.Handler(ctx, bc, args)
	} else {
		v, err = e.Handler(ctx, args)
	}
	if err != nil {
		return nil, err
	}
	if raw, ok := v.(json.RawMessage); ok {
		if len(raw) > 0 && !jsontext.Valid(raw) {
			return nil, &errs.Tool{Code: codes.ToolError, Message: "the tool returned invalid JSON"}
		}
		return raw, nil
	}
	// a built-in's result may hold more raw bytes than a value (a file,
	// a response body, a command's output); a Go tool's result is the
	// embedder's own, and its host call is kept at its cost
	if bc.MaxValue > 0 && e.Func != nil {
		if n := rawSizeOf(v, bc.MaxValue, 0); n > bc.MaxValue {
			// JSON would be longer still (escapes, base64, punctuation):
			// refused before encoding, which could take six times as much
			return nil, &errs.Tool{Code: codes.ValueTooLarge, Message: fmt.Sprintf("the result is over %d bytes, the limit of a value (Limits.MaxValue)", bc.MaxValue)}
		}
	}
	b, err := resultJSON(v)
	if err != nil {
		return nil, &errs.Tool{Code: codes.ToolError, Message: "the tool's result is not JSON: " + err.Error(), Err: err}
	}
	return b, nil
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
	marshalers    sync.Map // reflect.Type → bool (marshals)
	structFields  sync.Map // reflect.Type → []int (jsonFields)
)

// jsonFields returns the indices of struct type t's fields that JSON
// writes (exported, not tagged "-"), cached by type.
func jsonFields(t reflect.Type) []int {
	if f, ok := structFields.Load(t); ok {
		return f.([]int)
	}
	var f []int
	for i := range t.NumField() {
		if sf := t.Field(i); sf.IsExported() && sf.Tag.Get("json") != "-" {
			f = append(f, i)
		}
	}
	structFields.Store(t, f)
	return f
}

// marshals reports whether values of t (or pointers to them) write their
// own JSON, cached by type.
func marshals(t reflect.Type) bool {
	if m, ok := marshalers.Load(t); ok {
		return m.(bool)
	}
	m := t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)
	marshalers.Store(t, m)
	return m
}

// rawSizeOf is rawSize of v, without reflection for the shapes decoded
// JSON and most tools' results have.
func rawSizeOf(v any, limit, depth int) int {
	switch x := v.(type) {
	case nil, bool, float64, int, int64, json.Number:
		return 0
	case string:
		return len(x)
	case json.RawMessage:
		return len(x)
	case map[string]any:
		if depth > 100 {
			return 0
		}
		n := 0
		for k, e := range x {
			if n > limit {
				break
			}
			n += len(k) + rawSizeOf(e, limit-n, depth+1)
		}
		return n
	case []any:
		if depth > 100 {
			return 0
		}
		n := 0
		for _, e := range x {
			if n > limit {
				break
			}
			n += rawSizeOf(e, limit-n, depth+1)
		}
		return n
	}
	return rawSize(reflect.ValueOf(v), limit, depth)
}

// rawSize returns a lower bound of the length of v's JSON, the bytes of
// its strings (a []byte's base64), map keys included, counting up to just
// past limit; depth bounds the walk (json.Marshal refuses a cycle).
func rawSize(v reflect.Value, limit, depth int) int {
	if depth > 100 || !v.IsValid() {
		return 0
	}
	switch v.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return 0 // a lower bound whatever writes it
	}
	// only a type declared in a package (or a pointer to one) has methods
	if t := v.Type(); (t.PkgPath() != "" || t.Kind() == reflect.Pointer && t.Elem().PkgPath() != "") && marshals(t) {
		return 0 // it writes itself: no bound known
	}
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return rawSize(v.Elem(), limit, depth+1)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return (v.Len() + 2) / 3 * 4
		}
		fallthrough
	case reflect.Array:
		n := 0
		for i := 0; i < v.Len() && n <= limit; i++ {
			n += rawSize(v.Index(i), limit-n, depth+1)
		}
		return n
	case reflect.Map:
		n := 0
		for it := v.MapRange(); it.Next() && n <= limit; {
			n += rawSize(it.Key(), limit-n, depth+1) + rawSize(it.Value(), limit-n, depth+1)
		}
		return n
	case reflect.Struct:
		n := 0
		for _, i := range jsonFields(v.Type()) {
			if n > limit {
				break
			}
			n += rawSize(v.Field(i), limit-n, depth+1)
		}
		return n
	}
	return 0
}

// resultJSON is json.Marshal(v), written directly for the results typed
// tools return most: a float64 that encoding/json writes in 'f' notation
// (finite, zero or of magnitude in [1e-6, 1e21)), an int or int64, a bool.
func resultJSON(v any) ([]byte, error) {
	var buf [32]byte
	switch x := v.(type) {
	case float64:
		if a := math.Abs(x); a >= 1 && a < 1<<53 && x == math.Trunc(x) {
			// an integer: 'f' notation writes its digits, as AppendInt does
			return append([]byte(nil), strconv.AppendInt(buf[:0], int64(x), 10)...), nil
		}
		if a := math.Abs(x); a == 0 || a >= 1e-6 && a < 1e21 {
			return append([]byte(nil), strconv.AppendFloat(buf[:0], x, 'f', -1, 64)...), nil
		}
	case int:
		return append([]byte(nil), strconv.AppendInt(buf[:0], int64(x), 10)...), nil
	case int64:
		return append([]byte(nil), strconv.AppendInt(buf[:0], x, 10)...), nil
	case bool:
		return append([]byte(nil), strconv.AppendBool(buf[:0], x)...), nil
	}
	return json.Marshal(v)
}

// alias is the original name when it differs from the mapped one (and is
// not a reserved member name, nor the mapped name of another tool).
func (e *Entry) alias() string {
	if e.Name != e.JS && !e.noAlias && !reservedMember[e.Name] {
		return e.Name
	}
	return ""
}

// Original is the name the user sees: the server's namespace and the
// tool's name as registered ("my-srv.get-sum").
func (e *Entry) Original() string {
	if e.Namespace != "" {
		return e.Namespace + "." + e.Name
	}
	return e.Name
}

func (e *Entry) qualified() string {
	if e.Namespace != "" {
		return e.Namespace + "/" + e.Name
	}
	return e.Name
}

// Box is an engine's toolbox, with the guest's setup JSON.
type Box struct {
	entries  []*Entry // tools, sorted by key
	builtins []*Entry // sh, fetch, fs.*: reached by their own globals, sorted by key
	caps     []*builtin.Capability
	byKey    map[string]*Entry
	globals  []string
	setup    []byte
	index    *searchIndex
	warnings []string // tools renamed because their names clash
}

type setupTool struct {
	Key   string   `json:"key"`
	Path  []string `json:"path"`
	Alias string   `json:"alias,omitempty"`
}

type setupJSON struct {
	Tools    []setupTool     `json:"tools"`
	Globals  []string        `json:"globals"`
	Search   bool            `json:"search"`
	Builtins map[string]bool `json:"builtins,omitempty"`
}

// Lookup returns the entry with key, or nil.
func (b *Box) Lookup(key string) *Entry { return b.byKey[key] }

// Tools returns the tools (not the built-ins), sorted by key.
func (b *Box) Tools() []*Entry { return b.entries }

// Builtins returns the built-ins' functions, sorted by key.
func (b *Box) Builtins() []*Entry { return b.builtins }

// Capabilities returns the enabled built-ins.
func (b *Box) Capabilities() []*builtin.Capability { return b.caps }

// IsGlobal reports whether the namespace ns (mapped) is also a JS global.
func (b *Box) IsGlobal(ns string) bool { return ns != "" && slices.Contains(b.globals, ns) }

// Setup is the JSON the prelude builds tools and the globals from.
func (b *Box) Setup() []byte { return b.setup }

// Warnings lists the tools renamed because their names clash.
func (b *Box) Warnings() []string { return slices.Clone(b.warnings) }

// New builds the toolbox of tools and the built-ins of caps, with the
// engine's policies and flows applied (a pattern rule overrides
// Tool.Policy; flows add to Tool.Source and Tool.Sink).
func New(tools []Tool, caps []*builtin.Capability, policies map[string]policy.Policy, flows policy.Flows) (*Box, error) {
	rules, err := policy.Compile("EngineConfig.Policies", policies)
	if err != nil {
		return nil, err
	}
	caps = slices.SortedFunc(slices.Values(caps), func(a, b *builtin.Capability) int { return strings.Compare(a.Name, b.Name) })
	box := &Box{byKey: map[string]*Entry{}, caps: caps}
	if err := box.addTools(tools, rules, flows); err != nil {
		return nil, err
	}
	slices.SortFunc(box.entries, func(a, b *Entry) int { return strings.Compare(a.Key, b.Key) })
	if err := box.addBuiltins(caps, rules, flows); err != nil {
		return nil, err
	}
	if err := checkRulesMatch(append(slices.Clone(box.entries), box.builtins...), policies, flows); err != nil {
		return nil, err
	}
	if err := box.makeSetup(); err != nil {
		return nil, err
	}
	box.index = newSearchIndex(box)
	return box, nil
}

// addTools maps the tools' names and checks that every key is unique.
func (box *Box) addTools(tools []Tool, rules *policy.Rules, flows policy.Flows) error {
	nsOriginal := map[string]string{} // mapped namespace -> original
	mapped, base, warnings := assignNames(tools)
	box.warnings = warnings
	for i, t := range tools {
		e, err := newEntry(fmt.Sprintf("Tools[%d]", i), t, mapped[i])
		if err != nil {
			return err
		}
		e.baseKey = base[i]
		if e.NS != "" {
			e.baseKey = e.NS + "." + base[i]
		}
		field := fmt.Sprintf("Tools[%d]", i)
		if e.NS != "" {
			if prev, ok := nsOriginal[e.NS]; ok && prev != t.Namespace {
				return &errs.Config{Field: field, Reason: fmt.Sprintf("namespaces %q and %q both map to %q", prev, t.Namespace, e.NS)}
			}
			nsOriginal[e.NS] = t.Namespace
		} else if slices.Contains(reservedRoot, e.JS) {
			return &errs.Config{Field: field, Reason: fmt.Sprintf("tool name %q is reserved (tools.%s is the toolbox's own); give the tool a namespace", t.Name, e.JS)}
		}
		if prev, ok := box.byKey[e.Key]; ok {
			return &errs.Config{Field: field, Reason: fmt.Sprintf("tools %q and %q both map to tools.%s", prev.qualified(), e.qualified(), e.Key)}
		}
		names := e.RuleNames()
		e.Policy = rules.ForNames(e.Policy, names...)
		e.Source = e.Source || flows.IsSource(names...)
		e.Sink = e.Sink || flows.IsSink(names...)
		box.byKey[e.Key] = e
		box.entries = append(box.entries, e)
	}
	return box.checkShadows()
}

// newEntry checks one tool and compiles its schema.
func newEntry(field string, t Tool, js string) (*Entry, error) {
	if t.Handler == nil {
		return nil, &errs.Config{Field: field, Reason: fmt.Sprintf("tool %q has no handler", t.Name)}
	}
	switch t.Policy {
	case "":
		t.Policy = policy.Allow
	case policy.Allow, policy.Ask, policy.Deny:
	default:
		return nil, &errs.Config{Field: field + ".Policy", Reason: fmt.Sprintf("%q is not allow, ask or deny", t.Policy)}
	}
	e := &Entry{Tool: t, JS: js, Key: js}
	if t.Namespace != "" {
		e.NS = mapNamespace(t.Namespace)
		e.Key = e.NS + "." + e.JS
	}
	v, err := schema.Compile(t.InputSchema)
	if err != nil {
		return nil, &errs.Config{Field: field, Reason: fmt.Sprintf("tool %q has an invalid input schema", t.Name), Err: err}
	}
	e.Input = v
	return e, nil
}

// checkShadows refuses a namespace that is also a tool at the root, and
// an original name (the alias) that is another tool's mapped name at the
// root; in a namespace such an alias is dropped instead.
func (box *Box) checkShadows() error {
	for _, e := range box.entries {
		if e.NS != "" {
			if other, ok := box.byKey[e.NS]; ok {
				return &errs.Config{Field: "Tools", Reason: fmt.Sprintf("tool %q clashes with the namespace of %q", other.qualified(), e.qualified())}
			}
		}
		alias := e.alias()
		if alias == "" {
			continue
		}
		k := alias
		if e.NS != "" {
			k = e.NS + "." + alias
		}
		if other, ok := box.byKey[k]; ok && other != e {
			if e.NS == "" {
				return &errs.Config{Field: "Tools", Reason: fmt.Sprintf("the original name of %q is the name of %q", e.qualified(), other.qualified())}
			}
			e.noAlias = true
		}
	}
	return nil
}

// addBuiltins adds the built-ins' functions, refusing tools that take
// their keys or namespaces.
func (box *Box) addBuiltins(caps []*builtin.Capability, rules *policy.Rules, flows policy.Flows) error {
	for _, c := range caps {
		for _, f := range c.Funcs {
			b := &Entry{
				Tool: Tool{Name: f.Key, Description: f.Description, InputSchema: f.Schema,
					Policy: f.Policy, Source: f.Source, Sink: f.Sink},
				NS: f.Namespace, JS: f.Key, Key: f.Key, Input: f.Input, Func: f, Cap: c,
			}
			if prev, ok := box.byKey[b.Key]; ok {
				return &errs.Config{Field: "Tools", Reason: fmt.Sprintf("tool %q takes the key %q of the built-in %s; give it a namespace", prev.qualified(), b.Key, b.Label())}
			}
			for _, e := range box.entries {
				if b.NS != "" && (e.NS == b.NS || e.Key == b.NS) {
					return &errs.Config{Field: "Tools", Reason: fmt.Sprintf("tool %q uses the name %q of the built-in %s; rename its namespace", e.qualified(), b.NS, b.NS)}
				}
			}
			b.Policy = rules.For(b.Key, b.Policy)
			b.Source = b.Source || flows.IsSource(b.Key)
			b.Sink = b.Sink || flows.IsSink(b.Key)
			box.byKey[b.Key] = b
			box.builtins = append(box.builtins, b)
		}
	}
	slices.SortFunc(box.builtins, func(a, b *Entry) int { return strings.Compare(a.Key, b.Key) })
	return nil
}

// makeSetup writes the prelude's setup: every tool's key and path, the
// namespaces that become globals, and the built-ins to install.
func (box *Box) makeSetup() error {
	setup := setupJSON{Tools: []setupTool{}, Globals: []string{}, Search: true}
	for _, c := range box.caps {
		if setup.Builtins == nil {
			setup.Builtins = map[string]bool{}
		}
		setup.Builtins[c.Name] = true
	}
	seenNS := map[string]bool{}
	for _, e := range box.entries {
		path := []string{e.JS}
		if e.NS != "" {
			path = []string{e.NS, e.JS}
			if !seenNS[e.NS] {
				seenNS[e.NS] = true
				if !jsGlobals[e.NS] {
					box.globals = append(box.globals, e.NS)
				}
			}
		}
		setup.Tools = append(setup.Tools, setupTool{Key: e.Key, Path: path, Alias: e.alias()})
	}
	setup.Globals = append(setup.Globals, box.globals...)
	b, err := json.Marshal(setup)
	if err != nil {
		return err
	}
	box.setup = b
	return nil
}

// builtinRoots are the built-ins called by a bare key, and builtinSpaces
// the built-ins' namespaces, enabled or not: a rule may name a built-in
// the configuration leaves off.
var (
	builtinRoots  = []string{"sh", "fetch"}
	builtinSpaces = []string{"fs"}
)

// CheckRules reports a pattern of policies (a run's policies, field
// "RunOptions.Policies") that would silently protect nothing, as New does
// for the engine's rules.
func (b *Box) CheckRules(field string, policies map[string]policy.Policy) error {
	if len(policies) == 0 {
		return nil // most runs: nothing to check, nothing allocated
	}
	all := append(slices.Clone(b.entries), b.builtins...)
	keys := slices.Sorted(maps.Keys(policies))
	for _, k := range keys {
		if err := checkPattern(all, field, k); err != nil {
			return err
		}
	}
	return nil
}

// checkRulesMatch reports a rule (policy, flow source or sink) that would
// silently protect nothing: one that matches no tool or built-in while
// aimed at a namespace that has some, at a root name, at "tools.", or at
// a namespace that is a near miss of one that exists (a typo, a case
// slip, or a tool the server renamed). A namespace with no tools and no
// near miss is accepted: an MCP server that is disabled or did not start.
func checkRulesMatch(entries []*Entry, policies map[string]policy.Policy, flows policy.Flows) error {
	for _, k := range slices.Sorted(maps.Keys(policies)) {
		if err := checkPattern(entries, "EngineConfig.Policies", k); err != nil {
			return err
		}
	}
	for _, p := range flows.Sources {
		if err := checkPattern(entries, "EngineConfig.Flows.Sources", p); err != nil {
			return err
		}
	}
	for _, p := range flows.Sinks {
		if err := checkPattern(entries, "EngineConfig.Flows.Sinks", p); err != nil {
			return err
		}
	}
	return nil
}

// checkPattern checks one rule pattern against entries (tools and
// built-ins); see checkRulesMatch.
func checkPattern(entries []*Entry, field, pattern string) error {
	bad := func(reason string) error {
		return &errs.Config{Field: fmt.Sprintf("%s[%q]", field, pattern), Reason: reason}
	}
	if rest, ok := strings.CutPrefix(pattern, "tools."); ok {
		return bad(fmt.Sprintf("a pattern names a tool without the \"tools.\" prefix: write %q", rest))
	}
	for _, e := range entries {
		for _, n := range e.RuleNames() {
			if policy.Match(pattern, n) {
				return nil
			}
		}
	}
	ns, _, dotted := strings.Cut(pattern, ".")
	if strings.Contains(ns, "*") {
		return nil // aimed at no one namespace: "*", "*.delete_*"
	}
	spaces := map[string]bool{}
	roots := map[string]bool{}
	for _, s := range builtinSpaces {
		spaces[s] = true
	}
	for _, r := range builtinRoots {
		roots[r] = true
	}
	for _, e := range entries {
		if e.NS != "" {
			spaces[e.NS] = true
			if e.Namespace != "" {
				spaces[e.Namespace] = true
			}
		} else {
			roots[e.Key], roots[e.Name] = true, true
		}
	}
	if !dotted {
		if slices.Contains(builtinRoots, pattern) {
			return nil // a built-in the configuration leaves off
		}
		if spaces[pattern] {
			return bad(fmt.Sprintf("%q is a namespace: write %q for all its tools", pattern, pattern+".*"))
		}
		for _, e := range entries {
			if e.NS != "" && (e.Name == pattern || e.JS == pattern) {
				return bad(fmt.Sprintf("matches no tool (did you mean %q?)", e.Key))
			}
		}
		return bad("matches no tool" + didYouMean(pattern, roots, spaces))
	}
	if roots[ns] {
		return bad(fmt.Sprintf("%q is a tool, not a namespace: write %q", ns, ns))
	}
	if spaces[ns] {
		var names []string
		for _, e := range entries {
			if e.NS == ns || e.Namespace == ns {
				names = append(names, e.Name)
			}
		}
		if len(names) == 0 {
			return nil // a built-in namespace the configuration leaves off
		}
		sort.Strings(names)
		if len(names) > 20 {
			names = append(names[:20], "…")
		}
		return bad(fmt.Sprintf("matches no tool of %q (its tools: %s)", ns, strings.Join(names, ", ")))
	}
	if hint := didYouMean(ns, roots, spaces); hint != "" {
		return bad(fmt.Sprintf("%q is no namespace%s", ns, hint))
	}
	return nil
}

// didYouMean suggests the known name closest to s (the same but for case,
// or a small edit away), or "".
func didYouMean(s string, sets ...map[string]bool) string {
	best, bestD := "", 3
	for _, set := range sets {
		for k := range set {
			d := suggest.Distance(strings.ToLower(s), strings.ToLower(k))
			if d < bestD || d == bestD && k < best {
				best, bestD = k, d
			}
		}
	}
	if best == "" || bestD > 0 && (bestD > 2 || len(s) < 4) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
