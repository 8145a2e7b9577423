package mountfs

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/credpaths"

	"golang.org/x/text/unicode/norm"
)

// DefaultDeny are the deny patterns that always apply, whatever
// [Config.Deny] adds: modebox's credential list ([credpaths.Names]):
// environment files, private keys and keystores, git metadata, and the
// credential files and directories developers keep in their home
// directory (.ssh, .aws, .netrc, .npmrc, .pgpass, .git-credentials, ...).
// Each is matched against every path component (see [Config.Deny]).
var DefaultDeny = credpaths.Names

// TempPrefix starts the name of the temporary file a commit writes before
// renaming it over its target. Names with this prefix are hidden like
// denied ones, so a temporary file left by a crash is never seen by a
// guest.
const TempPrefix = ".modebox-tmp-"

// denyList holds normalised deny patterns.
type denyList struct {
	pats []string
}

// newDenyList checks and normalises the user's patterns and adds the
// default ones.
func newDenyList(user []string) (*denyList, error) {
	d := &denyList{}
	for _, p := range DefaultDeny {
		d.pats = append(d.pats, normName(p))
	}
	for _, p := range user {
		q := strings.TrimSuffix(p, "/")
		switch {
		case q == "":
			return nil, fmt.Errorf("deny pattern %q is empty", p)
		case strings.Contains(q, "/"):
			return nil, fmt.Errorf("deny pattern %q contains a /: patterns match single path components (a trailing / is allowed)", p)
		case strings.ContainsRune(q, 0):
			return nil, fmt.Errorf("deny pattern %q contains a NUL byte", p)
		}
		if _, err := path.Match(q, ""); err != nil {
			return nil, fmt.Errorf("deny pattern %q: %v", p, err)
		}
		d.pats = append(d.pats, normName(q))
	}
	return d, nil
}

// hidden reports whether a single path component names something the
// guest must not see.
func (d *denyList) hidden(name string) bool {
	if strings.HasPrefix(name, TempPrefix) {
		return true
	}
	n := normName(name)
	if strings.HasPrefix(n, TempPrefix) {
		return true
	}
	for _, p := range d.pats {
		if ok, _ := path.Match(p, n); ok {
			return true
		}
	}
	return false
}

// hiddenAny reports whether any of comps is hidden.
func (d *denyList) hiddenAny(comps []string) bool {
	for _, c := range comps {
		if d.hidden(c) {
			return true
		}
	}
	return false
}

// normName is the form of a name deny patterns are matched against:
// default-ignorable code points (zero-width spaces and joiners, byte
// order marks, soft hyphens, variation selectors and so on) removed,
// NFKC-normalised, lower-cased, and without trailing dots and spaces
// (which some file systems and tools drop).
func normName(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii {
		s = stripIgnorable(s)
		s = norm.NFKC.String(s)
		s = stripIgnorable(s)
	}
	s = strings.ToLower(s)
	if !ascii {
		s = norm.NFKC.String(s)
	}
	return strings.TrimRightFunc(s, func(r rune) bool { return r == '.' || unicode.IsSpace(r) })
}

// stripIgnorable removes default-ignorable code points and other
// invisible format characters.
func stripIgnorable(s string) string {
	if strings.IndexFunc(s, ignorable) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if ignorable(r) {
			return -1
		}
		return r
	}, s)
}

// ignorable approximates Unicode's Default_Ignorable_Code_Point property
// (which Go's unicode package has no table for) from its parts: format
// characters (Cf: U+200B..U+200F, U+202A..U+202E, U+2060..U+2064,
// U+FEFF, U+00AD, ...), variation selectors, and the
// Other_Default_Ignorable_Code_Point list (U+034F, Hangul fillers, ...).
func ignorable(r rune) bool {
	return unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}
