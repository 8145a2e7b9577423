package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/pgstore"
)

// The claim child: a process of this test binary that opens the store
// and claims one id, printing "won" or "used".
func TestMain(m *testing.M) {
	if url := os.Getenv("PGSTORE_TEST_CLAIM_URL"); url != "" {
		os.Exit(claimChild(url, os.Getenv("PGSTORE_TEST_CLAIM_ID")))
	}
	os.Exit(m.Run())
}

func claimChild(url, id string) int {
	ctx := context.Background()
	s, err := pgstore.Open(ctx, url, pgstore.Options{GCInterval: -1})
	if err != nil {
		fmt.Println("open:", err)
		return 1
	}
	defer s.Close()
	// Wait for the start signal: stdin closes.
	buf := make([]byte, 1)
	_, _ = os.Stdin.Read(buf)
	err = s.Claim(id, time.Now().Add(time.Hour))
	switch {
	case err == nil:
		fmt.Println("won")
	case seal.CodeOf(err) == modebox.CodeTokenUsed:
		fmt.Println("used")
	default:
		fmt.Println("error:", err)
		return 1
	}
	return 0
}

func open(t *testing.T, c *pgtest.Cluster) (*pgstore.Store, string) {
	t.Helper()
	url := c.NewDatabase()
	s, err := pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, url
}

const id1 = "0123456789abcdef0123456789abcdef"

func TestClaim(t *testing.T) {
	c := pgtest.Start(t)
	s, url := open(t, c)
	exp := time.Now().Add(time.Hour)
	if err := s.Claim(id1, exp); err != nil {
		t.Fatal(err)
	}
	err := s.Claim(id1, exp)
	var te *seal.Error
	if !errors.As(err, &te) || te.Code != modebox.CodeTokenUsed {
		t.Fatalf("second claim: %v, want TOKEN_USED", err)
	}
	// Another Store on the same database (another replica) sees it too.
	s2, err := pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.Claim(id1, exp); seal.CodeOf(err) != modebox.CodeTokenUsed {
		t.Fatalf("claim on another store: %v", err)
	}
	for _, bad := range []string{"", "x", strings.ToUpper(id1), id1 + "00", "../../../../etc/passwd0123456789"} {
		if err := s.Claim(bad, exp); pgstore.CodeOf(err) != pgstore.CodeInvalidID {
			t.Errorf("claim %q: %v, want %s", bad, err, pgstore.CodeInvalidID)
		}
	}
	if v, err := s.Version(context.Background()); err != nil || v != pgstore.SchemaVersion {
		t.Errorf("version %d, %v", v, err)
	}
}

// Eight processes race to claim one token id: exactly one wins.
func TestClaimRaceProcesses(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	const n = 8
	type child struct {
		cmd   *exec.Cmd
		out   *strings.Builder
		start func()
	}
	var kids []child
	for range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "PGSTORE_TEST_CLAIM_URL="+url, "PGSTORE_TEST_CLAIM_ID="+id1)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		w, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		kids = append(kids, child{cmd: cmd, out: out, start: func() { w.Close() }})
	}
	// Let them all connect and migrate (they race on the schema too).
	time.Sleep(500 * time.Millisecond)
	for _, k := range kids {
		k.start()
	}
	won, used := 0, 0
	for i, k := range kids {
		if err := k.cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, k.out)
		}
		switch strings.TrimSpace(k.out.String()) {
		case "won":
			won++
		case "used":
			used++
		default:
			t.Fatalf("child %d: %q", i, k.out)
		}
	}
	if won != 1 || used != n-1 {
		t.Fatalf("%d won, %d used; want exactly 1 winner of %d", won, used, n)
	}
}

// Goroutines racing on many ids through one pool: one winner each.
func TestClaimRaceGoroutines(t *testing.T) {
	c := pgtest.Start(t)
	s, _ := open(t, c)
	const ids, racers = 50, 6
	var mu sync.Mutex
	wins := map[string]int{}
	var wg sync.WaitGroup
	for r := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ids {
				id := fmt.Sprintf("%032x", (i*7+r)%ids) // different orders
				err := s.Claim(id, time.Now().Add(time.Hour))
				if err == nil {
					mu.Lock()
					wins[id]++
					mu.Unlock()
				} else if seal.CodeOf(err) != modebox.CodeTokenUsed {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if len(wins) != ids {
		t.Fatalf("%d ids won, want %d", len(wins), ids)
	}
	for id, n := range wins {
		if n != 1 {
			t.Errorf("%s won %d times", id, n)
		}
	}
}

// Expired records are collected, unexpired ones kept, and the plan
// uses the expiry index rather than a full scan.
func TestGC(t *testing.T) {
	c := pgtest.Start(t)
	s, _ := open(t, c)
	now := time.Now()
	for i := range 20 {
		exp := now.Add(-time.Hour)
		if i%2 == 0 {
			exp = now.Add(time.Hour)
		}
		// Records of expired tokens are written directly: a claim of
		// one is refused (TestSlowClockClaimOfExpiredToken).
		if _, err := s.Pool().Exec(context.Background(), "INSERT INTO modebox_used_tokens (id, expires_at) VALUES (decode($1, 'hex'), $2)",
			fmt.Sprintf("%032x", i), exp); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.GC(context.Background(), now)
	if err != nil || n != 10 {
		t.Fatalf("GC removed %d, %v; want 10", n, err)
	}
	for i := range 20 {
		err := s.Claim(fmt.Sprintf("%032x", i), now.Add(time.Hour))
		if (i%2 == 0) != (seal.CodeOf(err) == modebox.CodeTokenUsed) {
			t.Errorf("id %d after GC: %v", i, err)
		}
	}
	// The collection's plan, with sequential scans off as the planner
	// would choose on a large table: an index scan on the expiry.
	plan := explain(t, s, "EXPLAIN DELETE FROM modebox_used_tokens WHERE id IN (SELECT id FROM modebox_used_tokens WHERE expires_at < now() ORDER BY expires_at LIMIT 5000)")
	if !strings.Contains(plan, "modebox_used_tokens_expires") {
		t.Errorf("GC plan does not use the expiry index:\n%s", plan)
	}
}

func explain(t *testing.T, s *pgstore.Store, q string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := s.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	defer conn.Exec(ctx, "RESET enable_seqscan")
	rows, err := conn.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// The schema: created on first use, left alone on the next, and a newer
// schema than this build knows is refused.
func TestMigrate(t *testing.T) {
	c := pgtest.Start(t)
	s, url := open(t, c)
	s.Close()
	s2, err := pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	c.Exec(url, fmt.Sprintf("INSERT INTO modebox_schema (version) VALUES (%d)", pgstore.SchemaVersion+1))
	_, err = pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1})
	if pgstore.CodeOf(err) != pgstore.CodeSchemaTooNew {
		t.Fatalf("newer schema: %v, want %s", err, pgstore.CodeSchemaTooNew)
	}
	for _, bad := range []string{"postgres://[::1", "postgres://u:hunter2@db:notaport/x", "postgres://u:hunter2@db/x?sslmode=nonsense"} {
		_, err := pgstore.Open(context.Background(), bad, pgstore.Options{})
		if pgstore.CodeOf(err) != pgstore.CodeInvalidURL || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("bad URL %s: %v", bad, err)
		}
	}
}

// A claim while PostgreSQL is down fails closed with
// TOKEN_STORE_UNAVAILABLE, and claims work again once it is back.
func TestClaimServerDown(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	s, err := pgstore.Open(context.Background(), url, pgstore.Options{GCInterval: -1, ClaimTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c.Stop()
	err = s.Claim(id1, time.Now().Add(time.Hour))
	if pgstore.CodeOf(err) != modebox.CodeTokenStoreUnavailable {
		t.Fatalf("claim while down: %v, want %s", err, modebox.CodeTokenStoreUnavailable)
	}
	if strings.Contains(err.Error(), "password") {
		t.Errorf("error mentions a password: %v", err)
	}
	c.Restart()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err = s.Claim(id1, time.Now().Add(time.Hour))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("claim after restart: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
