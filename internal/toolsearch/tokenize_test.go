package toolsearch

import (
	"slices"
	"testing"
)

func TestSplitWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"createIssue", []string{"create", "issue", "createissue"}},
		{"get-sum", []string{"get", "sum"}},
		{"list_directory", []string{"list", "directory"}},
		{"github.create_issue", []string{"github", "create", "issue"}},
		{"HTTPServer", []string{"http", "server", "httpserver"}},
		{"ec2 base64", []string{"ec", "2", "ec2", "base", "64", "base64"}},
		{"GitHub's API", []string{"git", "hubs", "githubs", "api"}},
		{"  ", nil},
		{"Ünïcode_wörd", []string{"ünïcode", "wörd"}},
	}
	for _, c := range cases {
		var got []string
		splitWords(c.in, func(w string) { got = append(got, w) })
		if !slices.Equal(got, c.want) {
			t.Errorf("splitWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestStemConflates(t *testing.T) {
	groups := [][]string{
		{"issue", "issues"},
		{"create", "creates", "created", "creating"},
		{"entity", "entities"},
		{"directory", "directories"},
		{"branch", "branches"},
		{"add", "adds", "added", "adding"},
		{"get", "gets", "getting"},
		{"list", "lists", "listed", "listing"},
		{"file", "files"},
		{"message", "messages", "messaging"},
		{"copy", "copies", "copied"},
		{"address", "addresses"},
		{"setting", "settings", "set"},
	}
	for _, g := range groups {
		want := stem(g[0])
		for _, w := range g[1:] {
			if got := stem(w); got != want {
				t.Errorf("stem(%q) = %q, want %q (= stem(%q))", w, got, want, g[0])
			}
		}
	}
	for _, w := range []string{"string", "status", "pull", "access", "analysis", "this"} {
		if got := stem(w); got != w && got+"e" != w {
			t.Errorf("stem(%q) = %q, want it unchanged", w, got)
		}
	}
	for _, w := range []string{"ec2", "64", "wörd"} {
		if got := stem(w); got != w {
			t.Errorf("stem(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestAnalyze(t *testing.T) {
	got := analyze(nil, "What files are in this folder?", false)
	if want := []string{"fil", "folder"}; !slices.Equal(got, want) {
		t.Errorf("analyze = %q, want %q", got, want)
	}
	if got := analyze(nil, "who is it", false); len(got) != 0 {
		t.Errorf("analyze without keepStop = %q, want nothing", got)
	}
	if got := analyze(nil, "who is it", true); len(got) != 3 {
		t.Errorf("analyze with keepStop = %q, want the three stop words", got)
	}
}

func TestNameKey(t *testing.T) {
	for _, s := range []string{"createIssue", "create-issue", "create_issue", "Create Issue"} {
		if got := nameKey(s); got != "createissue" {
			t.Errorf("nameKey(%q) = %q", s, got)
		}
	}
}

func TestSynonymsSymmetric(t *testing.T) {
	for w, syns := range synonyms {
		for _, s := range syns {
			if s == w {
				t.Errorf("%q lists itself as a synonym", w)
			}
			if !slices.Contains(synonyms[s], w) {
				t.Errorf("%q -> %q but not back", w, s)
			}
		}
	}
	if !slices.Contains(synonyms[stem("folder")], stem("directory")) {
		t.Errorf("folder does not expand to directory: %q", synonyms[stem("folder")])
	}
}
