package modebox_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/modebox/modebox"
)

type capitalIn struct {
	Country string `json:"country" jsonschema:"the country's English name"`
}

// A Go tool: a typed function becomes tools.capital, with a JSON Schema
// derived from its input type; a program calls it, and its error reaches
// the program as a rejected promise.
func Example() {
	capitals := map[string]string{"France": "Paris", "Japan": "Tokyo", "Kenya": "Nairobi"}
	capital := modebox.MustTool("capital", "Returns the capital of a country.",
		func(_ context.Context, in capitalIn) (string, error) {
			if c, ok := capitals[in.Country]; ok {
				return c, nil
			}
			return "", fmt.Errorf("no capital known for %q", in.Country)
		})
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{capital}})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(context.Background(), `
		const out = [];
		for (const country of ["Japan", "Kenya", "Atlantis"]) {
			out.push(await tools.capital({ country }).catch(e => e.code));
		}
		return out`, modebox.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, string(res.Value))
	// Output: ok ["Tokyo","Nairobi","TOOL_ERROR"]
}

type transferIn struct {
	To     string  `json:"to"`
	Amount float64 `json:"amount"`
}

// An approver: calls whose policy is "ask" are put to it before they run;
// a denied call rejects the program's promise with APPROVAL_DENIED.
func ExampleApproverFunc() {
	pay := modebox.MustTool("pay", "Sends money.",
		func(_ context.Context, in transferIn) (string, error) {
			return fmt.Sprintf("sent %.2f to %s", in.Amount, in.To), nil
		})
	eng, err := modebox.New(modebox.EngineConfig{
		Tools:    []modebox.Tool{pay},
		Policies: map[string]modebox.Policy{"pay": modebox.PolicyAsk},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close()
	// the person (here: a rule) approves small amounts only
	approver := modebox.ApproverFunc(func(_ context.Context, req modebox.ApprovalRequest) (modebox.Decision, error) {
		fmt.Printf("asked: %s %s\n", req.Tool, req.Args)
		var in transferIn
		if json.Unmarshal(req.Args, &in) == nil && in.Amount <= 10 {
			return modebox.Approve, nil
		}
		return modebox.Deny, nil
	})
	res, err := eng.Run(context.Background(), `
		const small = await tools.pay({to: "ann", amount: 5});
		const big = await tools.pay({to: "bob", amount: 500}).catch(e => e.code);
		return [small, big]`, modebox.RunOptions{Approver: approver})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// asked: pay {"to":"ann","amount":5}
	// asked: pay {"to":"bob","amount":500}
	// ok ["sent 5.00 to ann","APPROVAL_DENIED"]
}

// Pause and resume: without an approver, a call that needs approval parks
// the run, which returns status "paused" with a sealed token. Later, even
// in another process with the same key and token store, Resume continues
// it with the person's decisions; the token resumes once.
func ExampleEngine_Resume() {
	dir, err := os.MkdirTemp("", "modebox-tokens-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	key := make([]byte, 32) // keep it secret (modebox.LoadKeys reads keys from a secret or a key file)
	if _, err := rand.Read(key); err != nil {
		log.Fatal(err)
	}
	deploy := modebox.MustTool("deploy", "Deploys a service.",
		func(_ context.Context, in struct {
			Service string `json:"service"`
		}) (string, error) {
			return "deployed " + in.Service, nil
		})
	eng, err := modebox.New(modebox.EngineConfig{
		Tools:         []modebox.Tool{deploy},
		Policies:      map[string]modebox.Policy{"deploy": modebox.PolicyAsk},
		Continuations: &modebox.Continuations{Keys: [][]byte{key}, Store: modebox.DirTokenStore(dir)},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close()
	ctx := context.Background()
	res, err := eng.Run(ctx, `
		console.log("checks passed");
		return await tools.deploy({service: "web"})`, modebox.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Pending[0].Tool, string(res.Pending[0].Args))

	// ... the person approves; the token comes back ...
	res, err = eng.Resume(ctx, res.Token, modebox.Decisions{Default: modebox.Approve})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, string(res.Value))
	// Output:
	// paused deploy {"service":"web"}
	// ok "deployed web"
}

// A capability: the fs built-in over a mount. The program reads the host
// directory at /data (read-only here) and nothing else of the host.
func ExampleFSConfig() {
	dir, err := os.MkdirTemp("", "modebox-data-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for name, text := range map[string]string{"a.md": "one two", "b.md": "three", ".env": "SECRET=1"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			log.Fatal(err)
		}
	}
	eng, err := modebox.New(modebox.EngineConfig{
		FS: &modebox.FSConfig{Mounts: []modebox.Mount{{Host: dir, Guest: "/data", Mode: "ro"}}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close()
	res, err := eng.Run(context.Background(), `
		const files = (await fs.glob("/data/*")).sort();
		const words = [];
		for (const f of files) words.push(f + ": " + (await fs.read(f)).split(" ").length);
		const write = await fs.write("/data/x.md", "no").catch(e => e.code);
		return {words, secret: await fs.exists("/data/.env"), write}`, modebox.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, string(res.Value))
	// Output: ok {"words":["/data/a.md: 2","/data/b.md: 1"],"secret":false,"write":"FS_READ_ONLY"}
}

// The shell built-in with a network: commands run under bubblewrap and
// reach only the listed hosts, through a filtering proxy. The proxy's
// bridge inside the sandbox is this program run again; the library answers
// that re-execution when the program starts, so main needs nothing for it
// (no call to MaybeBridge). Needs bubblewrap and curl (Linux).
func ExampleShellConfig() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "hello from the api")
	}))
	defer api.Close()
	host := strings.TrimPrefix(api.URL, "http://") // 127.0.0.1:PORT
	eng, err := modebox.New(modebox.EngineConfig{
		Shell:    &modebox.ShellConfig{Network: &modebox.ShellNetwork{Allow: []string{host}}},
		Policies: map[string]modebox.Policy{"sh": modebox.PolicyAllow},
	})
	if err != nil {
		log.Fatal(err) // SANDBOX_UNAVAILABLE where bubblewrap cannot run
	}
	defer eng.Close()
	res, err := eng.Run(context.Background(), `
		const listed = await sh("curl -s http://`+host+`/");
		const other = await sh("curl -s -o /dev/null -w '%{http_code}' http://example.com/");
		return [listed.stdout, other.stdout]`, modebox.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, string(res.Value))
	// Output: ok ["hello from the api","403"]
}
