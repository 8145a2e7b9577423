package config

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/webfetch"
)

func TestSections(t *testing.T) {
	doc := `{
  "shell": {"enabled": true, "workspace": ["/w", "/x"], "network": {"allow": ["pypi.org:443", "127.0.0.1:8080"]},
            "denyRead": ["~/secret"], "env": {"A": "b"}, "timeout": "5s", "maxTimeout": 60000, "maxOutput": "2MiB", "bwrap": "/usr/bin/bwrap"},
  "fetch": {"enabled": true, "allow": ["api.example.com:443", "*.example.org:443"], "headers": {"api.example.com:443": {"Authorization": "env:API_KEY"}},
            "maxBytes": "1MiB", "maxHeaderBytes": 4096, "maxRequestBody": "64KiB", "timeout": "10s", "maxRequests": 7, "maxRedirects": 2, "source": true},
  "fs": {"mounts": [{"host": "/srv/data", "guest": "/data"}, {"host": "/srv/out", "guest": "/out", "mode": "rw", "source": true}],
         "deny": ["*.sqlite", "app/token"], "allowWrite": {"/out": [".vscode"]}, "maxFileSize": "1MiB", "maxEntries": 50}
}`
	cfg, err := Parse([]byte(doc), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.ShellTool
	if s == nil || len(s.Workspace) != 2 || s.Network == nil || len(s.Network.Allow) != 2 || s.DenyRead[0] != "~/secret" ||
		s.Env["A"] != "b" || s.Timeout != 5*time.Second || s.MaxTimeout != time.Minute || s.MaxOutput != 2<<20 || s.Bwrap != "/usr/bin/bwrap" {
		t.Errorf("shell: %+v", s)
	}
	f := cfg.FetchTool
	if f == nil || len(f.Allow) != 2 || f.Headers["api.example.com:443"]["Authorization"] != "env:API_KEY" || f.MaxBytes != 1<<20 ||
		f.MaxHeaderBytes != 4096 || f.MaxRequestBody != 64<<10 || f.Timeout != 10*time.Second || f.MaxRequests != 7 || f.MaxRedirects != 2 || !f.Source {
		t.Errorf("fetch: %+v", f)
	}
	fs := cfg.FSTool
	if fs == nil || len(fs.Mounts) != 2 || fs.Mounts[0].Mode != "ro" || fs.Mounts[1].Mode != "rw" || !fs.Mounts[1].Source ||
		fs.Deny[0] != "*.sqlite" || fs.Deny[1] != "app/token" || fs.MaxFileSize != 1<<20 || fs.MaxEntries != 50 ||
		len(fs.AllowWrite) != 1 || len(fs.AllowWrite["/out"]) != 1 || fs.AllowWrite["/out"][0] != ".vscode" {
		t.Errorf("fs: %+v", fs)
	}
	// entries with a scheme and the private mark, headers keyed by them
	sch, err := Parse([]byte(`{"fetch": {"enabled": true, "allow": ["https://api.example.com", "db.internal:5432 private"],
		"headers": {"https://api.example.com": {"Authorization": "env:K"}}}, "shell": {"enabled": true, "workspace": ["/w"],
		"network": {"allow": ["svc.internal:8080 private"]}}}`), "m.json")
	if err != nil || sch.FetchTool.Allow[1] != "db.internal:5432 private" || sch.FetchTool.Headers["https://api.example.com"] == nil {
		t.Errorf("scheme and private entries: %v", err)
	}
	if _, err := Parse([]byte(`{"fetch": {"enabled": true, "allow": ["*.example.com:443 private"]}}`), "m.json"); err == nil {
		t.Error("a wildcard marked private was accepted")
	}
	off, err := Parse([]byte(`{"shell": {"enabled": false, "workspace": ["/w"]}, "fetch": {"enabled": false, "allow": ["a.b:1"]}, "fs": {"deny": []}}`), "m.json")
	if err != nil || off.ShellTool != nil || off.FetchTool != nil || off.FSTool != nil {
		t.Errorf("not enabled should be off: %+v %v", off, err)
	}
	empty, err := Parse([]byte(`{"shell": {}, "fetch": {}}`), "m.json")
	if err != nil || empty.ShellTool != nil || empty.FetchTool != nil {
		t.Errorf("empty sections should be off: %+v %v", empty, err)
	}
	// settings without "enabled": the feature would be off, which the
	// settings almost never mean; refused, naming the section
	for doc, path := range map[string]string{
		`{"fetch": {"allow": ["api.example.com:443"]}}`: "/fetch",
		`{"shell": {"workspace": ["."]}}`:               "/shell",
	} {
		_, err := Parse([]byte(doc), "m.json")
		var e *Error
		if !errors.As(err, &e) || e.Path != path || !strings.Contains(e.Message, `no "enabled"`) || !strings.Contains(e.Suggestion, `"enabled": true`) {
			t.Errorf("%s: %v", doc, err)
		}
	}
}

func TestSectionErrors(t *testing.T) {
	for doc, want := range map[string]string{
		`{"shell": {"enabled": true}}`:                                                               `needs "workspace"`,
		`{"shell": {"enabled": true, "workspace": ["/w"], "network": true}}`:                         "every host",
		`{"shell": {"enabled": true, "workspace": ["/w"], "network": {"allow": ["x"]}}}`:             "has no port",
		`{"shell": {"enabled": "yes"}}`:                                                              "true or false",
		`{"shell": {"enabld": true}}`:                                                                `did you mean "enabled"`,
		`{"fetch": {"enabled": true, "allow": ["2130706433:80"]}}`:                                   "non-canonical",
		`{"fetch": {"enabled": true, "allow": ["a.com."]}}`:                                          "has no port",
		`{"fetch": {"enabled": true, "allow": ["a.com.:443"]}}`:                                      "ends in a dot",
		`{"fetch": {"enabled": true, "allow": ["a.com:443"], "headers": {"b.com:443": {"X": "y"}}}}`: `not in "allow"`,
		`{"fetch": {"enabled": true, "maxBytes": "lots"}}`:                                           "size",
		`{"fetch": {"enabled": true, "maxRedirects": 500}}`:                                          "/fetch/maxRedirects: must be at most 100, got 500",
		`{"fs": {"mounts": [{"host": "/a", "guest": "data"}]}}`:                                      "absolute",
		`{"fs": {"mounts": [{"host": "/a"}]}}`:                                                       `needs "host" and "guest"`,
		`{"fs": {"mounts": [{"host": "/a", "guest": "/d", "mode": "wr"}]}}`:                          "wr",
		`{"fs": {"mounts": [{"host": "/a", "guest": "/d"}], "allowWrite": {"/d": [".vscode/x"]}}}`:   "one path component",
		`{"fs": {"mounts": [{"host": "/a", "guest": "/d"}], "allowWrite": {"/e": [".vscode"]}}}`:     "not a mount's",
	} {
		_, err := Parse([]byte(doc), "m.json")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", doc, err, want)
		}
	}
}

// "maxRedirects": 0 means no redirects, not the default that the Go
// value 0 means; leaving the key out keeps the default.
func TestFetchMaxRedirectsZeroMeansNone(t *testing.T) {
	for doc, want := range map[string]int{
		`{"fetch": {"enabled": true, "maxRedirects": 0}}`:   webfetch.NoRedirects,
		`{"fetch": {"enabled": true}}`:                      0,
		`{"fetch": {"enabled": true, "maxRedirects": 3}}`:   3,
		`{"fetch": {"enabled": true, "maxRedirects": 100}}`: 100,
	} {
		cfg, err := Parse([]byte(doc), "m.json")
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if got := cfg.FetchTool.MaxRedirects; got != want {
			t.Errorf("%s: MaxRedirects %d, want %d", doc, got, want)
		}
	}
}
