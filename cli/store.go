package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/config"
	iconfig "github.com/modebox/modebox/internal/config"
	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/mcpserver"
	"github.com/modebox/modebox/pgstore"
)

// envTokenStore selects the token store, overriding modebox.json's
// "tokenStore": a postgres:// URL or a directory path.
const envTokenStore = "MODEBOX_TOKEN_STORE"

// errStore marks a token store setting that is not usable (a bad
// $MODEBOX_TOKEN_STORE, a URL that does not parse, a newer schema): a
// configuration error, unlike a store that is down.
var errStore = errors.New("token store")

// storeOpenTimeout bounds connecting to PostgreSQL at start.
const storeOpenTimeout = 15 * time.Second

// storeSpec returns the token store setting in force and where it came
// from: $MODEBOX_TOKEN_STORE, else "tokenStore", else "" (the default
// directory).
func storeSpec(cfg *config.File) (spec, where string, err error) {
	if v, ok := os.LookupEnv(envTokenStore); ok && strings.TrimSpace(v) != "" {
		if msg, hint := iconfig.TokenStoreProblem(v, false); msg != "" {
			if hint != "" {
				msg += " (" + hint + ")"
			}
			return "", "", fmt.Errorf("%w: $%s: %s", errStore, envTokenStore, msg)
		}
		return v, "$" + envTokenStore, nil
	}
	if cfg != nil && cfg.TokenStore != "" {
		return cfg.TokenStore, cfg.Path + ": tokenStore", nil
	}
	return "", "", nil
}

func isPostgres(spec string) bool {
	return strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://")
}

// openStore opens the token store in force. pg is set for PostgreSQL;
// closeFn releases it.
func openStore(ctx context.Context, cfg *config.File) (store modebox.TokenStore, pg *pgstore.Store, closeFn func(), err error) {
	spec, where, err := storeSpec(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	switch {
	case spec == "":
		dir, err := modebox.DefaultTokenDir()
		return modebox.DirTokenStore(dir), nil, func() {}, err
	case isPostgres(spec):
		octx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
		defer cancel()
		pg, err := pgstore.Open(octx, spec, pgstore.Options{})
		if code := pgstore.CodeOf(err); code == pgstore.CodeInvalidURL || code == pgstore.CodeSchemaTooNew {
			return nil, nil, nil, fmt.Errorf("%w (%s): %w", errStore, where, err)
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("token store (%s): %w", where, err)
		}
		return pg, pg, pg.Close, nil
	}
	return modebox.DirTokenStore(spec), nil, func() {}, nil
}

// sharedCache is the MCP server's shared retry cache when the token store
// is PostgreSQL, else nil.
func sharedCache(pg *pgstore.Store, c *modebox.Continuations) *mcpserver.Shared {
	if pg == nil || c == nil {
		return nil
	}
	return &mcpserver.Shared{Store: pg, Keys: c.Keys}
}

// checkTokenStore is doctor's line for the token store: where used
// tokens are recorded and, for PostgreSQL, the schema version and
// whether the keys that sealed the latest claims are this replica's.
func checkTokenStore(cfgPath string) []check {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		cfg = nil
	}
	spec, where, err := storeSpec(cfg)
	if err != nil {
		return []check{{Name: "used tokens", Detail: err.Error()}}
	}
	if !isPostgres(spec) {
		return []check{checkDirStore(spec)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
	defer cancel()
	// doctor creates nothing: the store is only read.
	pg, err := pgstore.Open(ctx, spec, pgstore.Options{ReadOnly: true})
	if err != nil {
		return []check{{Name: "used tokens", Detail: where + ": " + err.Error()}}
	}
	defer pg.Close()
	v, err := pg.Version(ctx)
	switch {
	case err != nil:
		return []check{{Name: "used tokens", Detail: where + ": " + err.Error()}}
	case v == 0:
		return []check{{Name: "used tokens", OK: true, Detail: fmt.Sprintf("PostgreSQL (%s), no schema yet: the first replica to start creates it (that needs CREATE on the schema)", where)}}
	case v > pgstore.SchemaVersion:
		return []check{{Name: "used tokens", Detail: fmt.Sprintf("PostgreSQL (%s): schema version %d is newer than this modebox's %d: upgrade it", where, v, pgstore.SchemaVersion)}}
	}
	out := []check{{Name: "used tokens", OK: true, Detail: fmt.Sprintf("PostgreSQL (%s), schema version %d", where, v)}}
	return append(out, checkReplicaKeys(ctx, pg))
}

// checkReplicaKeys compares this replica's keys with those that sealed
// the latest claims in the shared store.
func checkReplicaKeys(ctx context.Context, pg *pgstore.Store) check {
	const name = "replica keys"
	kr, err := seal.LoadKeyring()
	if err != nil {
		return check{Name: name, Detail: err.Error()}
	}
	counts, err := pg.KeyIDs(ctx, 1000)
	if err != nil {
		return check{Name: name, Detail: err.Error()}
	}
	here := map[string]string{kr.Active.ID: "active"}
	for _, k := range kr.Previous {
		here[k.ID] = "previous"
	}
	if len(counts) == 0 {
		return check{Name: name, OK: true, Detail: "active key " + kr.Active.ID + "; the store has no claims yet to compare with"}
	}
	total := 0
	var unknown, old []string
	activeSeen := 0
	for _, c := range counts {
		total += c.Claims
		switch here[c.KeyID] {
		case "":
			unknown = append(unknown, fmt.Sprintf("%s (%d)", c.KeyID, c.Claims))
		case "previous":
			old = append(old, fmt.Sprintf("%s (%d)", c.KeyID, c.Claims))
		default:
			activeSeen = c.Claims
		}
	}
	if len(unknown) > 0 {
		return check{Name: name, Detail: fmt.Sprintf("MISMATCH: of the %d latest claims, tokens sealed with key %s are not in this replica's keys (active %s): "+
			"runs paused on other replicas fail here with %s. Give every replica the same $%s",
			total, strings.Join(unknown, ", "), kr.Active.ID, modebox.CodeTokenUnknownKey, seal.EnvSecret)}
	}
	detail := fmt.Sprintf("match: active key %s sealed %d of the %d latest claims", kr.Active.ID, activeSeen, total)
	if len(old) > 0 {
		detail += "; the rest were sealed with this replica's previous key " + strings.Join(old, ", ") + " (a rotation in progress)"
	}
	return check{Name: name, OK: true, Detail: detail}
}
