package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/modebox/modebox/internal/pgtest"
)

const (
	storeKey1 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
	storeKey2 = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8"
)

// fetchAskConfig writes a modebox.json whose fetch() reaches srv only,
// asking each time, with tokenStore set to store when it is not empty.
func fetchAskConfig(t *testing.T, srv *httptest.Server, store string) string {
	t.Helper()
	cfg := map[string]any{
		"fetch": map[string]any{"enabled": true, "allow": []string{strings.TrimPrefix(srv.URL, "http://")}},
		"tools": map[string]any{"fetch": map[string]string{"policy": "ask"}},
	}
	if store != "" {
		cfg["tokenStore"] = store
	}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// pauseAndResume pauses a run on the CLI, resumes it, and resumes it
// again, which must be refused.
func pauseAndResume(t *testing.T, cfg, url string) {
	t.Helper()
	prog := fmt.Sprintf(`return await (await fetch(%q)).text()`, url)
	code, token, errs := runCLI(t, prog, "run", "--config", cfg, "--no-prompt", "-")
	if code != ExitPaused {
		t.Fatalf("run: exit %d %q %q", code, token, errs)
	}
	token = strings.TrimSpace(token)
	code, out, errs := runCLI(t, "", "resume", "--config", cfg, "--approve", token)
	if code != ExitOK || !strings.Contains(out, "pong") {
		t.Fatalf("resume: exit %d %q %q", code, out, errs)
	}
	code, _, errs = runCLI(t, "", "resume", "--config", cfg, "--approve", token)
	if code != ExitToken || !strings.Contains(errs, "TOKEN_USED") {
		t.Fatalf("a second resume: exit %d %q", code, errs)
	}
}

func countClaims(t *testing.T, url string) (n int) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM modebox_used_tokens").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// $MODEBOX_TOKEN_STORE and "tokenStore" select the token store, the
// environment first; doctor checks it and compares this replica's keys
// with those of the latest claims.
func TestCLITokenStore(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "pong") }))
	defer srv.Close()
	pg := pgtest.Start(t)
	url := pg.NewDatabase()
	t.Setenv("MODEBOX_SECRET", storeKey1)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_CONFIG", "")
	t.Chdir(t.TempDir())

	// The environment wins over the file.
	fileDir := filepath.Join(t.TempDir(), "from-file")
	cfg := fetchAskConfig(t, srv, fileDir)
	t.Setenv("MODEBOX_TOKEN_STORE", url)
	pauseAndResume(t, cfg, srv.URL)
	if n := countClaims(t, url); n != 1 {
		t.Fatalf("%d claims in PostgreSQL, want 1", n)
	}
	if _, err := os.Stat(fileDir); !os.IsNotExist(err) {
		t.Fatalf("the file's store was used although $MODEBOX_TOKEN_STORE is set: %v", err)
	}

	// Without it, the file's.
	t.Setenv("MODEBOX_TOKEN_STORE", "")
	pauseAndResume(t, cfg, srv.URL)
	if entries, err := os.ReadDir(fileDir); err != nil || len(entries) != 1 {
		t.Fatalf("claims in the file's directory: %v %v", entries, err)
	}
	// And the file's PostgreSQL URL.
	pauseAndResume(t, fetchAskConfig(t, srv, url), srv.URL)
	if n := countClaims(t, url); n != 2 {
		t.Fatalf("%d claims in PostgreSQL, want 2", n)
	}

	t.Setenv("MODEBOX_TOKEN_STORE", "mysql://db/x")
	if code, _, errs := runCLI(t, "return 1", "run", "--config", cfg, "--no-prompt", "-"); code != ExitConfig || !strings.Contains(errs, "MODEBOX_TOKEN_STORE") {
		t.Fatalf("bad $MODEBOX_TOKEN_STORE: exit %d %q", code, errs)
	}
	t.Setenv("MODEBOX_TOKEN_STORE", "postgres://postgres@"+pg.Addr()+"/nosuchdb?sslmode=disable&connect_timeout=5")
	if code, _, errs := runCLI(t, "return 1", "run", "--config", cfg, "--no-prompt", "-"); code != ExitFailed || !strings.Contains(errs, "TOKEN_STORE_UNAVAILABLE") {
		t.Fatalf("unreachable store: exit %d %q", code, errs)
	}

	// doctor: the store, and the keys of its latest claims.
	t.Setenv("MODEBOX_TOKEN_STORE", url)
	doctor := func() (int, map[string]check) {
		code, out, errs := runCLI(t, "", "doctor", "--json")
		var checks []check
		if err := json.Unmarshal([]byte(out), &checks); err != nil {
			t.Fatalf("doctor: %v %q %q", err, out, errs)
		}
		m := map[string]check{}
		for _, c := range checks {
			m[c.Name] = c
		}
		return code, m
	}
	code, checks := doctor()
	if c := checks["used tokens"]; !c.OK || !strings.Contains(c.Detail, "PostgreSQL") || !strings.Contains(c.Detail, "schema version 1") {
		t.Errorf("used tokens: %+v", c)
	}
	if c := checks["replica keys"]; code != ExitOK || !c.OK || !strings.HasPrefix(c.Detail, "match") {
		t.Errorf("same key: exit %d, %+v", code, c)
	}
	t.Setenv("MODEBOX_SECRET", storeKey2)
	code, checks = doctor()
	if c := checks["replica keys"]; code != ExitFailed || c.OK || !strings.Contains(c.Detail, "MISMATCH") {
		t.Errorf("another key: exit %d, %+v", code, c)
	}
	t.Setenv("MODEBOX_SECRET", storeKey2+","+storeKey1) // rotation: the new key first
	code, checks = doctor()
	if c := checks["replica keys"]; code != ExitOK || !c.OK || !strings.Contains(c.Detail, "previous key") {
		t.Errorf("rotation: exit %d, %+v", code, c)
	}
}

// A bad $MODEBOX_TOKEN_STORE is refused without printing it: it may hold
// a password.
func TestTokenStoreEnvNotEchoed(t *testing.T) {
	for _, v := range []string{"mysql://u:hunter2@db/x", "relative/hunter2", "postgres://u:hunter2@db/%zz"} {
		t.Setenv("MODEBOX_TOKEN_STORE", v)
		_, _, err := storeSpec(nil)
		if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "MODEBOX_TOKEN_STORE") {
			t.Errorf("%s: %v", v, err)
		}
	}
}
