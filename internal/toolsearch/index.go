package toolsearch

import (
	"slices"
	"sync"
)

// Doc is one searchable tool.
type Doc struct {
	// ID is the tool's unique key, for example "github.create_issue". It is
	// what a [Hit] reports. Of several Docs with the same ID only the first
	// is indexed.
	ID string
	// Namespace is the group the tool belongs to, for example "github".
	Namespace string
	// Name is the tool's JavaScript name, for example "create_issue".
	Name string
	// Original is the name the tool's server gave it, for example
	// "create-issue". It may equal Name or be empty.
	Original string
	// Description is the tool's description as its server wrote it.
	Description string
	// Params are the tool's parameter names, nested ones included, for
	// example "owner", "repo", "title", "labels".
	Params []string
	// ParamDocs are the parameter descriptions; optional.
	ParamDocs []string
}

// Hit is one search result.
type Hit struct {
	// ID is the [Doc.ID] of the matching tool.
	ID string
	// Score is the tool's relevance; higher is better. Scores are only
	// comparable between hits of the same search.
	Score float64
}

// Index is a search index over a fixed set of tools. It is immutable once
// built and safe for concurrent use by multiple goroutines.
type Index struct {
	ids      []string
	nameLen  []float64            // number of name words per tool
	postings map[string][]posting // term -> tools containing it
	vocab    []string             // every term, sorted, for prefix expansion
	byNS     map[string][]int32   // namespace term -> tools in that namespace
	byKey    map[string][]int32   // nameKey of name, original or ID -> tools
	scratch  sync.Pool            // *scratch, reused between searches
}

// posting is one (term, tool) pair with the term's BM25F pseudo frequency
// in the tool: field-weighted, length-normalised and saturated. The inverse
// document frequency is applied at query time, per query word (see
// [Index.Search]).
type posting struct {
	doc  int32
	name bool // the term is one of the tool's name words (see nameTerms)
	tf   float64
}

// BM25F parameters.
const (
	k1 = 1.2
	b  = 0.75
)

// Fields of a tool, in the order of fieldWeight.
const (
	fName = iota
	fNamespace
	fParams
	fDesc
	fParamDocs
	numFields
)

// fieldWeight is how much an occurrence of a term in each field counts.
var fieldWeight = [numFields]float64{
	fName:      4,
	fNamespace: 3,
	fParams:    1.5,
	fDesc:      1,
	fParamDocs: 0.5,
}

// fields returns the analysed terms of each field of d.
func fields(d *Doc) [numFields][]string {
	var f [numFields][]string
	f[fName] = analyze(nil, d.Name, true)
	if d.Original != "" && nameKey(d.Original) != nameKey(d.Name) {
		// Add the original name's words that the JS name lacks, so a
		// tool whose two names agree is not counted twice.
		for _, t := range analyze(nil, d.Original, true) {
			if !slices.Contains(f[fName], t) {
				f[fName] = append(f[fName], t)
			}
		}
	}
	f[fNamespace] = analyze(nil, d.Namespace, true)
	for _, p := range d.Params {
		f[fParams] = analyze(f[fParams], p, false)
	}
	f[fDesc] = analyze(nil, d.Description, false)
	for _, p := range d.ParamDocs {
		f[fParamDocs] = analyze(f[fParamDocs], p, false)
	}
	return f
}

// NewIndex builds an index over docs. The docs are not retained.
func NewIndex(docs []Doc) *Index {
	ix := &Index{
		postings: make(map[string][]posting),
		byNS:     make(map[string][]int32),
		byKey:    make(map[string][]int32),
	}
	seen := make(map[string]bool, len(docs))
	var all [][numFields][]string
	var total [numFields]float64
	for i := range docs {
		d := &docs[i]
		if seen[d.ID] {
			continue
		}
		seen[d.ID] = true
		doc := int32(len(ix.ids))
		ix.ids = append(ix.ids, d.ID)
		f := fields(d)
		all = append(all, f)
		for k := range f {
			total[k] += float64(len(f[k]))
		}
		for _, t := range uniq(f[fNamespace]) {
			ix.byNS[t] = append(ix.byNS[t], doc)
		}
		for _, s := range uniq([]string{nameKey(d.Name), nameKey(d.Original), nameKey(d.ID)}) {
			if s != "" {
				ix.byKey[s] = append(ix.byKey[s], doc)
			}
		}
	}
	n := float64(len(all))
	var avg [numFields]float64
	for k := range avg {
		avg[k] = max(total[k]/max(n, 1), 1)
	}

	splits := compounds(all)

	// Field-weighted, length-normalised term frequencies, saturated.
	for doc, f := range all {
		tf := make(map[string]float64)
		for k, terms := range f {
			norm := fieldWeight[k] / (1 - b + b*float64(len(terms))/avg[k])
			for _, t := range terms {
				tf[t] += norm
				if parts, ok := splits[t]; ok {
					tf[parts[0]] += compoundWeight * norm
					tf[parts[1]] += compoundWeight * norm
				}
			}
		}
		names := nameTerms(f)
		ix.nameLen = append(ix.nameLen, float64(len(names)))
		for t, v := range tf {
			sat := v * (k1 + 1) / (k1 + v)
			p := posting{doc: int32(doc), name: slices.Contains(names, t), tf: sat}
			ix.postings[t] = append(ix.postings[t], p)
		}
	}
	for t := range ix.postings {
		ix.vocab = append(ix.vocab, t)
	}
	slices.Sort(ix.vocab)
	ix.scratch.New = func() any { return newScratch(len(ix.ids)) }
	return ix
}

// compoundWeight is how much an occurrence of a compound word ("worklog",
// "freebusy", "filename") counts for each of its parts.
const compoundWeight = 0.5

// maxCompound is the longest term compounds tries to split (the work is
// quadratic in the length).
const maxCompound = 40

// compounds finds the indexed terms that are two other indexed terms of at
// least three letters written together, and maps each to its parts, so that
// "worklog" is also found by "work" and "log".
func compounds(all [][numFields][]string) map[string][2]string {
	vocab := make(map[string]bool)
	for _, f := range all {
		for _, terms := range f {
			for _, t := range terms {
				vocab[t] = true
			}
		}
	}
	const minPart = 3
	splits := make(map[string][2]string)
	for t := range vocab {
		if len(t) > maxCompound || !isAlpha(t) {
			continue
		}
		for i := minPart; i <= len(t)-minPart; i++ {
			if l, r := stem(t[:i]), stem(t[i:]); vocab[l] && vocab[r] {
				splits[t] = [2]string{l, r}
				break
			}
		}
	}
	return splits
}

// isAlpha reports whether s is all ASCII lower-case letters.
func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// nameTerms returns the distinct words of a tool's name (JS and original)
// other than its namespace's, or all of them if that leaves none. They are
// what the name-coverage boost of [Index.Search] counts.
func nameTerms(f [numFields][]string) []string {
	var out []string
	for _, t := range f[fName] {
		if !slices.Contains(f[fNamespace], t) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		out = uniq(f[fName])
	}
	return out
}

// uniq returns s without repeated elements, keeping the first of each.
func uniq(s []string) []string {
	out := s[:0:0]
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
