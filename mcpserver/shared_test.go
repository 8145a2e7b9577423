package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	mrand "math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/pgstore"
)

func testKey(t testing.TB) []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}

// genString draws from every Unicode plane, the characters JSON and
// HTML escape, and NUL.
func genString(r *mrand.Rand, max int) string {
	special := []rune{0, '<', '>', '&', '"', '\\', '\n', '\u2028', '\u2029', 0x7f, 0xfffd, 0x10ffff, 0x1f600, 0xe0001, 0x2a6d6}
	n := r.IntN(max + 1)
	var b strings.Builder
	for range n {
		switch r.IntN(4) {
		case 0:
			b.WriteRune(special[r.IntN(len(special))])
		case 1:
			b.WriteRune(rune(0x20 + r.IntN(0x5f)))
		default:
			for {
				c := rune(r.IntN(0x110000))
				if utf8.ValidRune(c) {
					b.WriteRune(c)
					break
				}
			}
		}
	}
	return b.String()
}

// genJSON is a random JSON value of every type, nested up to depth.
func genJSON(r *mrand.Rand, depth int) any {
	k := r.IntN(7)
	if depth <= 0 && k >= 5 {
		k = r.IntN(5)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return []float64{0, -1, 1e300, -2.5e-300, 9007199254740993, r.NormFloat64() * 1e6}[r.IntN(6)]
	case 3, 4:
		return genString(r, 40)
	case 5:
		a := make([]any, r.IntN(5))
		for i := range a {
			a[i] = genJSON(r, depth-1)
		}
		return a
	}
	m := map[string]any{}
	for range r.IntN(5) {
		m[genString(r, 8)] = genJSON(r, depth-1)
	}
	return m
}

func rawJSON(t testing.TB, v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))
}

func genResult(t testing.TB, r *mrand.Rand) *modebox.Result {
	res := &modebox.Result{Status: []modebox.Status{modebox.StatusOK, modebox.StatusError, modebox.StatusPaused}[r.IntN(3)]}
	if r.IntN(5) > 0 {
		res.Value = rawJSON(t, genJSON(r, 1+r.IntN(12)))
	}
	for range r.IntN(4) {
		res.Logs = append(res.Logs, modebox.Log{Level: "log", Message: genString(r, 60)})
	}
	if r.IntN(3) == 0 {
		res.Error = &modebox.Error{Code: modebox.Code(genString(r, 10)), Message: genString(r, 50), Line: r.IntN(100), Stack: genString(r, 30)}
	}
	for i := range r.IntN(3) {
		res.Pending = append(res.Pending, modebox.PendingCall{ID: i + 1, Tool: genString(r, 10), Args: rawJSON(t, genJSON(r, 4)), Reason: genString(r, 20)})
	}
	if r.IntN(3) == 0 {
		res.Token = "mbx1." + genString(r, 20)
	}
	if r.IntN(4) == 0 {
		res.Files = &modebox.FilesReport{Committed: []string{genString(r, 10)}}
	}
	res.LogsDropped = r.IntN(3)
	res.Stats = modebox.Stats{Duration: time.Duration(r.Int64()), Fuel: r.Uint64(), HostCalls: r.IntN(1000), PeakMemory: r.Uint64()}
	return res
}

// A resume's outcome survives sealing into the shared store exactly:
// every JSON type, every Unicode plane, & < > " \ NUL, deep nesting,
// large values; token errors keep their code; and the text a retry
// shows is byte for byte the first one's.
func TestStoredResumeRoundTrip(t *testing.T) {
	sh := newShared(&Shared{Store: nopStore{}, Keys: [][]byte{testKey(t)}})
	r := mrand.New(mrand.NewPCG(1, 2))
	key := sharedKey("resume", [32]byte{1})
	srv := &Server{opts: Options{MaxResultText: DefaultMaxResultText}}
	for i := range 400 {
		res := genResult(t, r)
		if i%50 == 0 { // large
			res.Value = rawJSON(t, strings.Repeat(genString(r, 50), 2000))
		}
		blob, err := sh.seal(key, encodeResume(res, nil), resumeKeep, sh.max)
		if err != nil {
			t.Fatal(err)
		}
		var back storedResume
		if err := sh.open(key, blob, &back); err != nil {
			t.Fatal(err)
		}
		got, err := back.decode()
		if err != nil {
			t.Fatal(err)
		}
		want := *res
		if want.Logs == nil {
			want.Logs = []modebox.Log{} // a Result's JSON always has a list of logs
		}
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("round trip %d changed the result:\n%#v\n%#v", i, res, got)
		}
		if a, b := text(t, srv.runResult(res, routePause, runInput{})), text(t, srv.runResult(got, routePause, runInput{})); a != b {
			t.Fatalf("the retry's text differs:\n%s\n%s", a, b)
		}
	}
	for _, err := range []error{
		&modebox.TokenError{Code: modebox.CodeTokenUsed, Message: genString(r, 30)},
		errors.New(genString(r, 30)),
	} {
		blob, serr := sh.seal(key, encodeResume(nil, err), resumeKeep, sh.max)
		if serr != nil {
			t.Fatal(serr)
		}
		var back storedResume
		if err := sh.open(key, blob, &back); err != nil {
			t.Fatal(err)
		}
		_, got := back.decode()
		if got == nil || got.Error() != err.Error() {
			t.Fatalf("error round trip: %v, want %v", got, err)
		}
		var te, want *modebox.TokenError
		if errors.As(err, &want) && (!errors.As(got, &te) || te.Code != want.Code) {
			t.Fatalf("token error lost its code: %v", got)
		}
	}
}

// A sealed entry opens only under its own key, and only with the keys it
// was sealed with: copying it under another key in the store, or a store
// written by a replica with other keys, does not open.
func TestStoredEntryBinding(t *testing.T) {
	k1 := testKey(t)
	sh := newShared(&Shared{Store: nopStore{}, Keys: [][]byte{k1}})
	a, b := sharedKey("resume", [32]byte{1}), sharedKey("resume", [32]byte{2})
	blob, err := sh.seal(a, encodeResume(&modebox.Result{Status: "ok"}, nil), resumeKeep, sh.max)
	if err != nil {
		t.Fatal(err)
	}
	var e storedResume
	if err := sh.open(b, blob, &e); err == nil {
		t.Fatal("an entry moved under another key opened")
	}
	other := newShared(&Shared{Store: nopStore{}, Keys: [][]byte{testKey(t)}})
	if err := other.open(a, blob, &e); err == nil {
		t.Fatal("an entry opened with another replica's key")
	}
	rotated := newShared(&Shared{Store: nopStore{}, Keys: [][]byte{testKey(t), k1}})
	if err := rotated.open(a, blob, &e); err != nil {
		t.Fatalf("a previous key does not open its entries: %v", err)
	}
	if sharedKey("ask", [32]byte{1}) == nil || bytes.Equal(sharedKey("ask", [32]byte{1}), a) {
		t.Fatal("ask and resume entries share a key")
	}
}

// nopStore stores nothing (for the tests of sealing alone).
type nopStore struct{}

func (nopStore) Begin(context.Context, []byte, time.Duration, time.Duration) (bool, []byte, error) {
	return true, nil, nil
}
func (nopStore) Renew(context.Context, []byte, time.Duration) error          { return nil }
func (nopStore) Finish(context.Context, []byte, []byte, time.Duration) error { return nil }
func (nopStore) Abandon(context.Context, []byte) error                       { return nil }
func (nopStore) Put(context.Context, []byte, []byte, time.Duration) error    { return nil }
func (nopStore) Get(context.Context, []byte) ([]byte, error)                 { return nil, nil }
func (nopStore) Delete(context.Context, []byte) error                        { return nil }

// Two servers on one PostgreSQL database, as two replicas: concurrent
// retries of one resume on both run it once and all get the first
// result; a result over MaxResult is not kept and a retry elsewhere says
// so; a token that does not open leaves no entry.
func TestSharedCachePostgres(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	ctx := context.Background()
	key := testKey(t)
	var servers []*Server
	var engines []*modebox.Engine
	var recs []*recorder
	for range 2 {
		pg, eng, rec := sharedReplica(t, url, key)
		engines, recs = append(engines, eng), append(recs, rec)
		servers = append(servers, New(eng, Options{ApproveTool: true, Shared: &Shared{Store: pg, Keys: [][]byte{key}}}))
	}
	pause := func(code string) string {
		t.Helper()
		res, err := engines[0].Run(ctx, code, modebox.RunOptions{})
		if err != nil || res.Status != modebox.StatusPaused {
			t.Fatalf("want a pause: %v %+v", err, res)
		}
		return res.Token
	}
	resume := func(s *Server, tok string) (*modebox.Result, error) {
		return s.resumes.do(ctx, tok, func(ctx context.Context) (*modebox.Result, error) {
			return s.eng.Resume(ctx, tok, modebox.Decisions{Default: modebox.Approve})
		})
	}

	tok := pause(`return (await files.delete({path: "/once"})).deleted`)
	var wg sync.WaitGroup
	results := make([]string, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := resume(servers[i%2], tok)
			if err != nil {
				results[i] = "error: " + err.Error()
				return
			}
			results[i] = string(res.Value)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r != `"/once"` {
			t.Errorf("retry %d: %s", i, r)
		}
	}
	if n := len(recs[0].list()) + len(recs[1].list()); n != 1 {
		t.Fatalf("the approved call ran %d times, want 1", n)
	}

	// Too large to keep: the first caller gets it, a retry elsewhere
	// gets RESULT_NOT_KEPT.
	servers[0].resumes.shared.max = 200
	tok = pause(`await files.delete({path: "/big"}); return "x".repeat(5000)`)
	res, err := resume(servers[0], tok)
	if err != nil || res.Status != modebox.StatusOK || len(res.Value) < 5000 {
		t.Fatalf("large result: %v %+v", err, res)
	}
	res, err = resume(servers[1], tok)
	if err != nil || res.Error == nil || res.Error.Code != CodeResultNotKept {
		t.Fatalf("retry of a large result elsewhere: %v %+v", err, res)
	}

	// A token that does not open: refused, and nothing kept.
	bad := tok[:len(tok)-3] + "AAA"
	for _, s := range servers {
		if _, err := resume(s, bad); err == nil {
			t.Fatal("a tampered token resumed")
		}
	}
	var n int
	if err := servers[0].resumes.shared.store.(*pgstore.Store).Pool().QueryRow(ctx,
		"SELECT count(*) FROM modebox_results WHERE key = $1", sharedKey("resume", sha256.Sum256([]byte(bad)))).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a tampered token left %d entries (%v)", n, err)
	}
}

// sharedReplica is one replica of a shared deployment: a store on the
// database url and an engine (with newEngine's tools and recorder) whose
// continuations are sealed with key and claimed in that store.
func sharedReplica(t *testing.T, url string, key []byte) (*pgstore.Store, *modebox.Engine, *recorder) {
	t.Helper()
	pg, err := pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Close)
	eng, rec := newEngine(t)
	eng, err = eng.WithContinuations(&modebox.Continuations{Keys: [][]byte{key}, Store: pg})
	if err != nil {
		t.Fatal(err)
	}
	return pg, eng, rec
}
