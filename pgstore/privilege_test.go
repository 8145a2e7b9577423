package pgstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/pgstore"
)

// With the schema in place, a role that may only read and write the
// tables (no CREATE on the schema, as docs/scaling.md grants it) opens
// the store and uses it.
func TestOpenLeastPrivilege(t *testing.T) {
	c := pgtest.Start(t)
	s, url := open(t, c) // creates the schema as the owner
	s.Close()
	c.Exec(url, "CREATE ROLE modebox_rw LOGIN")
	c.Exec(url, "REVOKE CREATE ON SCHEMA public FROM PUBLIC")
	c.Exec(url, "GRANT SELECT, INSERT, UPDATE, DELETE ON modebox_used_tokens, modebox_results, modebox_schema TO modebox_rw")
	rw := strings.Replace(url, "postgres://postgres@", "postgres://modebox_rw@", 1)
	ctx := context.Background()
	s2, err := pgstore.Open(ctx, rw, pgstore.Options{GCInterval: -1})
	if err != nil {
		t.Fatalf("open with the documented grants: %v", err)
	}
	defer s2.Close()
	if err := s2.Claim("0123456789abcdef0123456789abcdef", nowPlusHour()); err != nil {
		t.Fatal(err)
	}
}

// ReadOnly opens without creating anything: on an empty database the
// version is 0 and no table appears.
func TestOpenReadOnlyCreatesNothing(t *testing.T) {
	c := pgtest.Start(t)
	url := c.NewDatabase()
	ctx := context.Background()
	s, err := pgstore.Open(ctx, url, pgstore.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.Version(ctx); err != nil || v != 0 {
		t.Fatalf("Version on an empty database: %d, %v", v, err)
	}
	var n int
	if err := s.Pool().QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'modebox%'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("a read-only open created %d tables (%v)", n, err)
	}
}

func nowPlusHour() time.Time { return time.Now().Add(time.Hour) }
