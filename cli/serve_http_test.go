package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// printedHTTP is what `modebox mcp --http` printed at start.
type printedHTTP struct {
	endpoint string
	header   string // "Authorization: Bearer ..." or ""
	config   string // the client configuration JSON
	runs     string // the runs page link
	all      string
}

// mcpCmdContext runs `modebox mcp` with args until ctx is done.
func mcpCmdContext(ctx context.Context, args []string, s Streams) int {
	return runContext(ctx, append([]string{"mcp"}, args...), s)
}

// startMCPHTTP runs `modebox mcp` with args in-process and reads what it
// prints until the runs page line.
func startMCPHTTP(t *testing.T, args ...string) printedHTTP {
	t.Helper()
	t.Setenv("MODEBOX_MCP_TOKEN", "")
	cfg := filepath.Join(t.TempDir(), "modebox.json")
	if err := os.WriteFile(cfg, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- mcpCmdContext(ctx, append([]string{"--config", cfg}, args...), Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: pw})
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		go io.Copy(io.Discard, pr)
		if code := <-done; code != ExitOK {
			t.Errorf("modebox mcp exited %d", code)
		}
	})
	var p printedHTTP
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		p.all += line + "\n"
		switch {
		case strings.HasPrefix(line, "modebox mcp: serving Streamable HTTP at "):
			p.endpoint = strings.TrimPrefix(line, "modebox mcp: serving Streamable HTTP at ")
		case strings.HasPrefix(line, "    Authorization: "):
			p.header = strings.TrimSpace(line)
		case strings.HasPrefix(line, `    {"mcpServers"`):
			p.config = strings.TrimSpace(line)
		case strings.HasPrefix(line, "modebox mcp: runs page"):
			_, p.runs, _ = strings.Cut(line, ": http")
			p.runs = "http" + p.runs
			return p
		}
	}
	t.Fatalf("modebox mcp printed no runs page line:\n%s", p.all)
	return p
}

// headerTransport adds the printed headers to each request.
type headerTransport map[string]string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func rawPost(t *testing.T, url string, header http.Header) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// `modebox mcp --http` without --token generates one, prints the endpoint
// and a client configuration, and a client that uses exactly what was
// printed gets in; without the header it gets 401, at another path 404.
func TestMCPHTTPPrintsHowToConnect(t *testing.T) {
	p := startMCPHTTP(t, "--http", "127.0.0.1:0")
	if !strings.HasSuffix(p.endpoint, "/mcp") || p.header == "" || p.config == "" {
		t.Fatalf("printed:\n%s", p.all)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Type    string            `json:"type"`
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(p.config), &cfg); err != nil {
		t.Fatalf("client configuration %q: %v", p.config, err)
	}
	entry := cfg.MCPServers["modebox"]
	if entry.URL != p.endpoint || entry.Type != "http" || "Authorization: "+entry.Headers["Authorization"] != p.header {
		t.Fatalf("client configuration %+v does not match\n%s", entry, p.all)
	}
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		c := mcp.NewClient(&mcp.Implementation{Name: "printed", Version: "1"}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: entry.URL, HTTPClient: &http.Client{Transport: headerTransport(entry.Headers)}},
			&mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			cancel()
			t.Fatalf("%s: connecting with the printed configuration: %v", version, err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"code": "return 6*7"}})
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(res.StructuredContent); !strings.Contains(string(b), `"result":42`) {
			t.Errorf("%s: %s", version, b)
		}
		cs.Close()
		cancel()
	}
	name, value, _ := strings.Cut(p.header, ": ")
	if code := rawPost(t, p.endpoint, nil); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	if code := rawPost(t, p.endpoint, http.Header{name: {value + "x"}}); code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d, want 401", code)
	}
	if code := rawPost(t, p.endpoint, http.Header{name: {value}}); code != http.StatusOK {
		t.Errorf("printed header: %d", code)
	}
	root := strings.TrimSuffix(p.endpoint, "/mcp")
	for _, path := range []string{"/", "/sse", "/mcp/x", "/messages"} {
		if code := rawPost(t, root+path, http.Header{name: {value}}); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, code)
		}
	}
	if code := rawPost(t, p.endpoint, http.Header{name: {value}, "Origin": {"http://localhost:3000"}}); code != http.StatusForbidden {
		t.Errorf("a loopback origin on another port: %d, want 403", code)
	}

	// The printed runs page link signs a browser in (a visit id in the
	// address and a cookie) and drops the token from the address; without
	// it the page is 401, and so it is with the browser's cookie alone.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	res, err := browser.Get(p.runs)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "modebox runs") || strings.Contains(res.Request.URL.String(), "token") {
		t.Errorf("runs link %s: %d at %s", p.runs, res.StatusCode, res.Request.URL)
	}
	if !strings.Contains(string(body), "<td>run</td>") {
		t.Errorf("the runs page does not list the runs:\n%s", body)
	}
	for _, c := range []*http.Client{http.DefaultClient, browser} {
		res, err = c.Get(root + "/runs")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("runs page without the token or the visit (cookies %v): %d", jar.Cookies(res.Request.URL), res.StatusCode)
		}
	}
}

// A chosen token is used as given; --no-auth serves without one and says so.
func TestMCPHTTPTokenAndNoAuth(t *testing.T) {
	p := startMCPHTTP(t, "--http", "127.0.0.1:0", "--token", "chosen-token")
	if p.header != "Authorization: Bearer chosen-token" || strings.Contains(p.all, "generated") {
		t.Errorf("--token: printed\n%s", p.all)
	}
	if code := rawPost(t, p.endpoint, http.Header{"Authorization": {"Bearer chosen-token"}}); code != http.StatusOK {
		t.Errorf("chosen token: %d", code)
	}
	open := startMCPHTTP(t, "--http", "127.0.0.1:0", "--no-auth")
	if !strings.Contains(open.all, "warning: --no-auth") || open.header != "" {
		t.Errorf("--no-auth: printed\n%s", open.all)
	}
	if code := rawPost(t, open.endpoint, nil); code != http.StatusOK {
		t.Errorf("--no-auth: %d", code)
	}
	if code, _, errs := runCLI(t, "", "mcp", "--http", "127.0.0.1:0", "--no-auth", "--token", "x"); code != ExitUsage || !strings.Contains(errs, "contradict") {
		t.Errorf("--no-auth with --token: exit %d %s", code, errs)
	}
}
