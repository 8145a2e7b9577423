package toolbox

import (
	"encoding/json"
	"strings"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/policy"

	"github.com/modebox/modebox/internal/toolsearch"
	"github.com/modebox/modebox/internal/tsdecl"
)

// searchIndex ranks the toolbox's tools for a query.
type searchIndex struct {
	ix    *toolsearch.Index
	byKey map[string]*Entry
}

func newSearchIndex(box *Box) *searchIndex {
	var docs []toolsearch.Doc
	for _, e := range box.entries {
		if e.Policy == policy.Deny {
			continue
		}
		params, paramDocs := schemaParams(e.InputSchema)
		docs = append(docs, toolsearch.Doc{
			ID: e.Key, Namespace: e.NS, Name: e.JS, Original: e.Name,
			Description: e.Description, Params: params, ParamDocs: paramDocs,
		})
	}
	return &searchIndex{ix: toolsearch.NewIndex(docs), byKey: box.byKey}
}

// schemaParams lists property names (two levels deep) and their
// descriptions, for search.
func schemaParams(raw json.RawMessage) (names, docs []string) {
	var walk func(s map[string]any, depth int)
	walk = func(s map[string]any, depth int) {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			names = append(names, name)
			if ps, ok := p.(map[string]any); ok {
				if d, ok := ps["description"].(string); ok {
					docs = append(docs, d)
				}
				if depth < 2 {
					walk(ps, depth+1)
				}
			}
		}
	}
	var s map[string]any
	if json.Unmarshal(raw, &s) == nil {
		walk(s, 1)
	}
	return names, docs
}

// Hit is one tool found by Search (modebox.SearchHit).
type Hit struct {
	// Key reaches the tool: tools.<Key>.
	Key string `json:"key"`
	// Signature is a compact one-line TypeScript signature.
	Signature string `json:"signature"`
	// Description is the tool's description, up to its first sentence.
	Description string `json:"description,omitempty"`
	// Declaration is the tool's full TypeScript declaration, when asked for.
	Declaration string `json:"declaration,omitempty"`
	// Score ranks hits (BM25 with field weights; higher is better).
	Score float64 `json:"score"`
}

// SearchOptions tune a search (modebox.SearchOptions).
type SearchOptions struct {
	// Limit is the most hits returned (default 5, at most 50).
	Limit int `json:"limit"`
	// Full adds each hit's full TypeScript declaration.
	Full bool `json:"full"`
}

// Search ranks the toolbox's tools for a query over names, descriptions
// and parameter names, best first. Denied tools are never returned.
func (box *Box) Search(query string, opts SearchOptions) []Hit {
	limit := opts.Limit
	if limit <= 0 {
		limit = 5
	}
	limit = min(limit, 50)
	var out []Hit
	for _, h := range box.index.ix.Search(query, limit) {
		en := box.byKey[h.ID]
		if en == nil {
			continue
		}
		hit := Hit{Key: en.Key, Signature: tsdecl.Signature(en.decl()), Description: firstSentence(en.Description), Score: h.Score}
		if opts.Full {
			hit.Declaration, _ = tsdecl.Declaration(en.decl())
		}
		out = append(out, hit)
	}
	return out
}

// SearchCall serves tools.search(query, {limit, full}) in the guest.
func (box *Box) SearchCall(args json.RawMessage) (json.RawMessage, error) {
	var a struct {
		Query string `json:"query"`
		SearchOptions
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, &errs.Tool{Code: codes.InvalidArgument, Message: "tools.search(query, {limit, full}): " + err.Error()}
	}
	hits := box.Search(a.Query, a.SearchOptions)
	if hits == nil {
		hits = []Hit{}
	}
	return json.Marshal(hits)
}

func (e *Entry) decl() tsdecl.Tool {
	return tsdecl.Tool{
		Namespace: e.NS, Name: e.JS, OriginalName: e.Name, Description: e.Description,
		Input: e.InputSchema, Output: e.OutputSchema, Policy: string(e.Policy),
	}
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > 200 {
		s = schemaTruncate(s, 200)
	}
	return s
}

func schemaTruncate(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
