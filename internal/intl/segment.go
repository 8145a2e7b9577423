package intl

import (
	"encoding/json"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// segmenter is Intl.Segmenter: the Unicode default boundaries of UAX #29
// (grapheme clusters, words, sentences) from github.com/rivo/uniseg. ICU
// tailors some of them (dictionary words for Thai, Lao, Khmer, Burmese and
// CJK); testdata/node/DIFFERENCES lists where that shows.
type segmenter struct {
	locale, granularity string
}

func newSegmenter(locales []string, o options) (*segmenter, error) {
	res, err := resolveLocale(locales)
	if err != nil {
		return nil, err
	}
	if _, err = o.str("localeMatcher", []string{"lookup", "best fit"}, "best fit"); err != nil {
		return nil, err
	}
	s := &segmenter{locale: res.locale}
	if s.granularity, err = o.str("granularity", []string{"grapheme", "word", "sentence"}, "grapheme"); err != nil {
		return nil, err
	}
	return s, nil
}

// segments is the reply to "segment": E holds each segment's end as a
// UTF-16 index into the input; W, for granularity "word" only, whether
// each segment is word-like.
type segments struct {
	E []int  `json:"e"`
	W []bool `json:"w,omitempty"`
}

// utf16Len is the length in UTF-16 code units of s. The guest's string
// reaches the host as JSON, where a lone surrogate becomes U+FFFD: one
// code unit either way, so indices stay those of the guest's string.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// wordLike says whether a word segment is word-like as ICU's rule status
// puts it: it holds a letter, a number, a kana or an ideograph (the
// statuses UBRK_WORD_LETTER, _NUMBER, _KANA and _IDEO), and is not
// spaces, punctuation, symbols or emoji alone.
func wordLike(seg string) bool {
	for _, r := range seg {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
	}
	return false
}

func (s *segmenter) segment(text string) segments {
	out := segments{E: []int{}}
	if s.granularity == "word" {
		out.W = []bool{}
	}
	pos, state := 0, -1
	for len(text) > 0 {
		var seg string
		switch s.granularity {
		case "word":
			seg, text, state = uniseg.FirstWordInString(text, state)
		case "sentence":
			seg, text, state = uniseg.FirstSentenceInString(text, state)
		default:
			seg, text, _, state = uniseg.FirstGraphemeClusterInString(text, state)
		}
		if seg == "" { // cannot happen for valid input; never loop forever
			_, size := utf8.DecodeRuneInString(text)
			seg, text = text[:size], text[size:]
		}
		pos += utf16Len(seg)
		out.E = append(out.E, pos)
		if out.W != nil {
			out.W = append(out.W, wordLike(seg))
		}
	}
	return out
}

func (s *segmenter) call(rest []json.RawMessage) (any, error) {
	switch methodName(rest) {
	case "resolvedOptions":
		return ordered("locale", s.locale, "granularity", s.granularity), nil
	case "segment":
		var text string
		if err := arg(rest, 1, &text); err != nil {
			return nil, err
		}
		return s.segment(text), nil
	}
	return nil, typeErr("Intl: unknown method")
}
