package toolsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopWords are dropped from documents and queries before stemming. They are
// words a model writes around the request ("what files are in this
// folder") that carry no signal for choosing a tool.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		a an the of to in on for from with by at and or but nor
		is are was were be been being am do does did done
		this that these those it its i me my mine we us our ours
		you your yours he she they them their his her
		all any some each every into onto about as than then so if
		how what when where which who whom whose why
		can could should would will shall may might must
		please want wanna need like just also there here via etc eg ie
		s t`) {
		stopWords[w] = true
	}
}

// splitWords calls fn with each raw word of s, lowercased. Words end at any
// character that is not a letter or digit, at a lower-to-upper case change
// ("createIssue"), before the last capital of a run followed by a lower-case
// letter ("HTTPServer" gives "http", "server") and between letters and
// digits ("ec2" gives "ec", "2"). A run of letters and digits split only
// by such case and digit changes is also passed whole, so that "GitHub"
// and "JavaScript" are found as "github" and "javascript" as well as by
// their parts. Apostrophes are dropped inside words, so "what's" is one
// word.
func splitWords(s string, fn func(w string)) {
	var word, run strings.Builder
	parts := 0
	const (
		other = iota
		lower
		upper
		digit
	)
	class := func(r rune) int {
		switch {
		case unicode.IsDigit(r):
			return digit
		case unicode.IsUpper(r):
			return upper
		case unicode.IsLetter(r):
			return lower // letters without case count as lower case
		}
		return other
	}
	endWord := func() {
		if word.Len() > 0 {
			fn(word.String())
			word.Reset()
			parts++
		}
	}
	endRun := func() {
		endWord()
		if parts > 1 {
			fn(run.String())
		}
		run.Reset()
		parts = 0
	}
	prev := other
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == '\'' || r == '’' {
			continue
		}
		c := class(r)
		switch {
		case c == other:
			endRun()
		case prev == lower && c == upper,
			prev == digit && c != digit,
			prev != digit && prev != other && c == digit:
			endWord()
		case prev == upper && c == upper:
			// "HTTPServer": break before "S" when a lower-case letter follows.
			if next, _ := utf8.DecodeRuneInString(s[i:]); class(next) == lower {
				endWord()
			}
		}
		if c != other {
			lr := unicode.ToLower(r)
			word.WriteRune(lr)
			run.WriteRune(lr)
		}
		prev = c
	}
	endRun()
}

// MaxWordLength is the longest word indexed, in bytes; longer words are
// left out of the index.
const MaxWordLength = 64

// analyze appends the index terms of s to dst: its words, minus stop words,
// stemmed. If every word of s is a stop word and keepStop is set, the stop
// words are kept (stemmed) rather than returning nothing, so a name such as
// "get_me" or a query such as "who" still has terms.
func analyze(dst []string, s string, keepStop bool) []string {
	start := len(dst)
	var stops []string
	splitWords(s, func(w string) {
		if len(w) > MaxWordLength {
			return // no word is that long: noise (or an attack), not a term
		}
		if stopWords[w] {
			if keepStop {
				stops = append(stops, w)
			}
			return
		}
		dst = append(dst, stem(w))
	})
	if len(dst) == start {
		for _, w := range stops {
			dst = append(dst, stem(w))
		}
	}
	return dst
}

// stem reduces an English word to a crude stem with a few suffix rules.
// It is not a linguistic stemmer; it only has to map the usual variants of
// a word ("issue", "issues"; "create", "creating", "created"; "entity",
// "entities"; "add", "added") to the same string, and it is applied to
// documents and queries alike. Words that are not plain ASCII letters are
// returned unchanged.
func stem(w string) string {
	if !isAlpha(w) {
		return w
	}
	// Plurals and third person.
	switch n := len(w); {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "ches") ||
		strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes")):
		w = w[:n-2]
	case n > 2 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	// Verb endings.
	switch n := len(w); {
	case n > 4 && strings.HasSuffix(w, "ied"):
		w = w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing") && hasVowel(w[:n-3]):
		w = w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed") && hasVowel(w[:n-2]):
		w = w[:n-2]
	}
	// A final "e", so that "create" meets "creat(ing)".
	if n := len(w); n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	// A final double consonant, so that "add" meets "add(ed)" and "get"
	// meets "gett(ing)". Double l, s and z are kept ("pull", "fill").
	if n := len(w); n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}

// hasVowel reports whether s contains a vowel (counting y), which keeps
// "string" and "thing" from losing their "ing".
func hasVowel(s string) bool {
	return strings.ContainsAny(s, "aeiouy")
}

// nameKey is the form in which a query is compared with tool names and IDs
// for the exact-name bonus: lower case, letters and digits only, so that
// "createIssue", "create-issue" and "create issue" are all "createissue".
func nameKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}
