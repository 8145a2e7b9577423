package toolsearch

import (
	"cmp"
	"math"
	"slices"
	"strings"
)

// Query tuning.
const (
	// synonymWeight scales the score a tool gets through a synonym of a
	// query word rather than the word itself.
	synonymWeight = 0.7
	// prefixWeight scales the score a tool gets through an indexed word
	// that an unknown query word is a prefix of ("calend" → "calendar").
	prefixWeight = 0.4
	// minPrefix is the shortest query word expanded by prefix.
	minPrefix = 3
	// maxPrefix caps the number of words a query word expands to by prefix.
	maxPrefix = 8
	// namespaceBoost multiplies the score a tool whose namespace is named
	// in the query gets from the query's other words. It multiplies
	// rather than adds, and leaves out the namespace word itself, so that
	// a tool matching nothing but its namespace is not lifted by it.
	namespaceBoost = 1.5
	// nameBoost scales the boost for a tool whose name words are matched
	// by the query (through synonyms at their weight): a tool whose whole
	// name is matched has its score multiplied by 1 + nameBoost.
	nameBoost = 0.5
	// exactBonus is how far above the best other tool a tool is placed
	// when the query is exactly its name, original name or ID.
	exactBonus = 1.0
)

// alt is one way a query word can match: an indexed term and the weight of
// a match through it.
type alt struct {
	term   string
	weight float64
}

// acc is the score of one tool being accumulated during a search.
type acc struct {
	score    float64 // total so far
	nsPart   float64 // part of score from words naming the tool's namespace
	cover    float64 // weighted count of the tool's name words matched
	best     float64 // best score of the current query word
	nameBest float64 // best weight of the current word's name matches
	mark     int     // 1 + index of the last query word naming the namespace
}

// scratch is per-search working memory, pooled in the [Index].
type scratch struct {
	acc     []acc   // per tool
	touched []int32 // tools matched by the current query word
	hitDocs []int32 // tools matched by any query word
}

func newScratch(n int) *scratch {
	return &scratch{acc: make([]acc, n)}
}

// Search returns up to limit tools matching query, best first; limit <= 0
// means no limit. Tools that match no query word are not returned, and a
// query with no words (empty or only punctuation) returns nothing. Hits
// with equal scores are ordered by ID.
func (ix *Index) Search(query string, limit int) []Hit {
	if ix == nil || len(ix.ids) == 0 || strings.TrimSpace(query) == "" {
		return nil
	}
	words := uniq(analyze(nil, query, true))
	exact := ix.byKey[nameKey(query)]
	if len(words) == 0 && len(exact) == 0 {
		return nil
	}
	n := float64(len(ix.ids))
	s := ix.scratch.Get().(*scratch)
	defer ix.scratch.Put(s)
	a := s.acc

	var alts []alt
	for wi, w := range words {
		// Each query word scores a tool once, through the best of its
		// alternatives.
		alts = ix.expand(alts[:0], w)
		for _, al := range alts {
			for _, p := range ix.postings[al.term] {
				d := &a[p.doc]
				if d.best == 0 {
					s.touched = append(s.touched, p.doc)
				}
				d.best = max(d.best, al.weight*p.tf)
				if p.name {
					d.nameBest = max(d.nameBest, al.weight)
				}
			}
		}
		for _, d := range ix.byNS[w] {
			a[d].mark = wi + 1
		}
		// The word's document frequency is that of all its alternatives
		// together: "folder" is as common as "directory" in a toolbox
		// that says "directory".
		df := float64(len(s.touched))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, t := range s.touched {
			d := &a[t]
			if d.score == 0 {
				s.hitDocs = append(s.hitDocs, t)
			}
			v := idf * d.best
			d.score += v
			if d.mark == wi+1 {
				d.nsPart += v
			}
			d.cover += d.nameBest
			d.best, d.nameBest = 0, 0
		}
		s.touched = s.touched[:0]
	}

	top := 0.0
	for _, t := range s.hitDocs {
		d := &a[t]
		if d.nsPart > 0 {
			d.score = d.nsPart + (d.score-d.nsPart)*namespaceBoost
		}
		if l := ix.nameLen[t]; l > 0 {
			d.score *= 1 + nameBoost*min(1, d.cover/l)
		}
		top = max(top, d.score)
	}
	for _, t := range exact {
		if a[t].score == 0 {
			s.hitDocs = append(s.hitDocs, t)
		}
		a[t].score += top + exactBonus
	}

	hits := make([]Hit, 0, len(s.hitDocs))
	for _, t := range s.hitDocs {
		hits = append(hits, Hit{ID: ix.ids[t], Score: a[t].score})
		a[t] = acc{}
	}
	s.hitDocs = s.hitDocs[:0]
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit:limit]
	}
	return hits
}

// expand appends to dst the alternatives of query word w that occur in the
// index: w itself at full weight and its synonyms at synonymWeight, or, if
// w does not occur at all, indexed words that start with it at
// prefixWeight.
func (ix *Index) expand(dst []alt, w string) []alt {
	_, known := ix.postings[w]
	if known {
		dst = append(dst, alt{w, 1})
	}
	for _, syn := range synonyms[w] {
		if _, ok := ix.postings[syn]; ok {
			dst = append(dst, alt{syn, synonymWeight})
		}
	}
	if known || len(w) < minPrefix {
		return dst
	}
	i, _ := slices.BinarySearch(ix.vocab, w)
	for n := 0; i < len(ix.vocab) && n < maxPrefix && strings.HasPrefix(ix.vocab[i], w); i, n = i+1, n+1 {
		dst = append(dst, alt{ix.vocab[i], prefixWeight})
	}
	return dst
}
