package policy

import (
	"testing"
)

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, key string
		want         bool
	}{
		{"sh", "sh", true},
		{"sh", "shell", false},
		{"fetch", "fetch", true},
		{"github.*", "github.get_issue", true},
		{"github.*", "github.", true},
		{"github.*", "github", false},
		{"github.*", "githubx.get", false},
		{"github.*", "gitlab.get", false},
		{"*.delete_*", "github.delete_repo", true},
		{"*.delete_*", "fs.delete_", true},
		{"*.delete_*", "github.get_repo", false},
		{"*.delete_*", "delete_repo", false},
		{"github.get_*", "github.get_issue", true},
		{"github.get_*", "github.list_issues", false},
		{"*", "anything.at.all", true},
		{"*", "", true},
		{"fs.*", "fs.read", true},
		{"fs.*", "fs", false},
		{"a*b*c", "abc", true},
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbYcZ", false},
		{"a*b*c", "abcbc", true},
		{"*a", "aaa", true},
		{"*x*", "abc", false},
		{"github.*", "GitHub.get", false},
		{"a.*", "a.b.c", true},
	} {
		if got := Match(tc.pattern, tc.key); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.key, got, tc.want)
		}
	}
}

func TestRulesAndStricter(t *testing.T) {
	r, err := Compile("P", map[string]Policy{"github.*": Ask, "*.delete_*": Deny, "github.get": Allow})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]Policy{"github.get": Allow, "github.delete_x": Ask, "gitlab.delete_x": Deny, "other": Allow} {
		if got := r.For(key, Allow); got != want {
			t.Errorf("For(%q) = %q, want %q", key, got, want)
		}
	}
	if got := r.ForNames(Allow, "github.get", "gitlab.delete_x"); got != Deny {
		t.Errorf("ForNames = %q, want the stricter, deny", got)
	}
	var nilRules *Rules
	if got := nilRules.For("x", Ask); got != Ask {
		t.Errorf("nil rules: %q", got)
	}
	if _, err := Compile("P", map[string]Policy{"x": "maybe"}); err == nil {
		t.Error("an invalid policy compiled")
	}
	if _, err := Compile("P", map[string]Policy{"": Allow}); err == nil {
		t.Error("an empty pattern compiled")
	}
	for _, c := range [][3]Policy{{Allow, Ask, Ask}, {Deny, Ask, Deny}, {Allow, Allow, Allow}, {"", Deny, Deny}} {
		if got := Stricter(c[0], c[1]); got != c[2] {
			t.Errorf("Stricter(%q, %q) = %q", c[0], c[1], got)
		}
	}
}
