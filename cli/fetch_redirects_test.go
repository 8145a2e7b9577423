package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestFetchMaxRedirectsZero: "maxRedirects": 0 in modebox.json means no
// redirect is followed (the request fails with FETCH_REDIRECT and the
// target is never asked); without the key, the default (5) applies.
func TestFetchMaxRedirectsZero(t *testing.T) {
	var landed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/end" {
			landed.Add(1)
			w.Write([]byte("landed"))
			return
		}
		http.Redirect(w, r, "/end", http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	entry := strings.TrimPrefix(srv.URL, "http://")
	prog := `try { const r = await fetch("` + srv.URL + `/start"); return "followed: " + await r.text() } catch (e) { return e.code + ": " + e.message }`
	for _, tc := range []struct {
		name, extra string
		want        string
		landed      int64
	}{
		{"zero", `, "maxRedirects": 0`, "FETCH_REDIRECT: ", 0},
		{"absent", ``, "followed: landed", 1},
		{"one", `, "maxRedirects": 1`, "followed: landed", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			landed.Store(0)
			dir := t.TempDir()
			cfg := filepath.Join(dir, "modebox.json")
			if err := os.WriteFile(cfg, []byte(`{"fetch": {"enabled": true, "allow": ["`+entry+`"]`+tc.extra+`}}`), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runCLI(t, prog, "run", "--config", cfg, "-")
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got string
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v: %q", err, out)
			}
			if !strings.HasPrefix(got, tc.want) || landed.Load() != tc.landed {
				t.Fatalf("got %q, %d requests reached /end; want %q..., %d", got, landed.Load(), tc.want, tc.landed)
			}
			if tc.name == "zero" && !strings.Contains(got, "maxRedirects") {
				t.Errorf("the refusal should name the setting: %q", got)
			}
		})
	}
}
