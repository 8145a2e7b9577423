package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/modebox/modebox/internal/pgtest"
)

// doctor inspects a PostgreSQL token store without creating anything:
// on a fresh database it says the schema is not there yet, and no table
// appears.
func TestDoctorTokenStoreCreatesNothing(t *testing.T) {
	pg := pgtest.Start(t)
	url := pg.NewDatabase()
	t.Setenv("MODEBOX_SECRET", storeKey1)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("MODEBOX_CONFIG", "")
	t.Setenv("MODEBOX_TOKEN_STORE", url)
	checks := checkTokenStore("")
	if len(checks) == 0 || !strings.Contains(checks[0].Detail, "no schema yet") {
		t.Errorf("doctor on a fresh database: %+v", checks)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'modebox%'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("doctor created %d tables (%v)", n, err)
	}
}
