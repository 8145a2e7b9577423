// Package pgstore keeps the state that replicas of modebox share in
// PostgreSQL: the used-token record, so that a continuation token resumes
// once across every replica (a [modebox.TokenStore]), and the retry cache
// of the MCP server, so that a retried resume reaching any replica gets
// the first result (an [mcpserver.SharedStore]).
//
// [Open] connects and creates or migrates the schema on first use (only
// then does it need CREATE on the schema; [Options.ReadOnly] creates
// nothing); the
// tables are named modebox_*, in the connection's search_path (set
// search_path in the URL to use another schema). The schema version is
// recorded in modebox_schema; migrations run under an advisory lock, so
// replicas starting together migrate once.
//
// Claiming a token is one statement (INSERT ... ON CONFLICT DO NOTHING on
// the token id's primary key), so exactly one of any number of concurrent
// claims wins, whichever replica makes it. Expired records are collected
// in batches through an index on their expiry, never by a full scan. A
// claim that cannot be completed (the connection lost, the server down,
// the claim timeout passed) fails closed: the resume is refused with
// [modebox.CodeTokenStoreUnavailable] and not run; the claim may have been
// recorded, so the token may not resume later either.
package pgstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/seal"
)

// Stable error codes of this package (Error.Code), the token store's in
// the codes registry. Never renamed.
const (
	// CodeUnavailable: PostgreSQL could not be reached or did not answer
	// in time. It is modebox.CodeTokenStoreUnavailable, the code a
	// refused resume reports.
	CodeUnavailable = modebox.CodeTokenStoreUnavailable
	// CodeInvalidURL: the connection string does not parse.
	CodeInvalidURL = modebox.CodeTokenStoreURLInvalid
	// CodeSchemaTooNew: the database holds a schema of a later modebox
	// than this one; upgrade this replica.
	CodeSchemaTooNew = modebox.CodeTokenStoreSchemaTooNew
	// CodeInvalidID: a claim of something that is not a token id.
	CodeInvalidID = modebox.CodeTokenStoreInvalidID
)

// SchemaVersion is the version of the schema this package creates and
// uses.
const SchemaVersion = 1

// Error is every error of this package other than a second claim (which
// is modebox.TokenUsedError): Code is one of the Code constants, Message
// says what went wrong (it never contains the password) and Err is the
// underlying error, if any. It renders as "CODE: message: cause".
type Error = codes.Error[errorOf]

// errorOf keeps this package's errors apart from other packages' for
// errors.As.
type errorOf struct{}

// CodeOf returns the code of the first *Error in err's chain, or "".
func CodeOf(err error) modebox.Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Options tune a Store; the zero value is ready to use.
type Options struct {
	// ClaimTimeout bounds one claim, and each retry-cache call, connection
	// included (default 5s).
	// A claim that does not finish in time fails closed.
	ClaimTimeout time.Duration
	// MaxConns is the size of the connection pool (default 16).
	MaxConns int32
	// GCInterval is how often expired records are collected (default one
	// minute). Replicas take turns: one collects at a time. Negative: never
	// (call GC yourself).
	GCInterval time.Duration
	// ReadOnly opens the store for inspection (modebox doctor): Open
	// then creates and migrates nothing and collects nothing; Version
	// reports 0 when the schema was never created.
	ReadOnly bool
}

// Store is the PostgreSQL store. It is safe for concurrent use.
type Store struct {
	pool    *pgxpool.Pool
	opts    Options
	owner   string // this process, in the retry cache's leases
	stopGC  chan struct{}
	gcDone  chan struct{}
	closeMu sync.Once
}

// Open connects to the database at url (a postgres:// URL or a key=value
// connection string, as libpq takes; the password may come from
// $PGPASSWORD or a passfile) and creates or migrates the schema.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	if opts.ClaimTimeout <= 0 {
		opts.ClaimTimeout = 5 * time.Second
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = 16
	}
	if opts.GCInterval == 0 {
		opts.GCInterval = time.Minute
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, &Error{Code: CodeInvalidURL, Message: "the token store's connection string does not parse", Err: redact(err)}
	}
	cfg.MaxConns = opts.MaxConns
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > opts.ClaimTimeout {
		cfg.ConnConfig.ConnectTimeout = opts.ClaimTimeout
	}
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "modebox"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, &Error{Code: CodeInvalidURL, Message: "the token store's connection string is not usable", Err: redact(err)}
	}
	s := &Store{pool: pool, opts: opts, owner: newOwner()}
	if opts.ReadOnly {
		if _, err := s.Version(ctx); err != nil {
			pool.Close()
			return nil, err
		}
		return s, nil
	}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if opts.GCInterval > 0 {
		s.stopGC, s.gcDone = make(chan struct{}), make(chan struct{})
		go s.gcLoop()
	}
	return s, nil
}

// Close stops collection and closes the connections.
func (s *Store) Close() {
	s.closeMu.Do(func() {
		if s.stopGC != nil {
			close(s.stopGC)
			<-s.gcDone
		}
		s.pool.Close()
	})
}

// Pool returns the connection pool, for callers that keep more in the same
// database.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

func newOwner() string {
	host, _ := os.Hostname()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s/%d/%x", host, os.Getpid(), b)
}

// redact keeps a connection error's text but never a password in it.
func redact(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "password="); i >= 0 {
		j := strings.IndexAny(msg[i:], " '")
		if j < 0 {
			j = len(msg) - i
		}
		msg = msg[:i] + "password=xxxxx" + msg[i+j:]
	}
	return errors.New(msg)
}

// unavailable wraps a database failure in CodeUnavailable.
func unavailable(what string, err error) error {
	return &Error{Code: CodeUnavailable, Message: what + " failed (PostgreSQL unreachable or too slow); refused, failing closed", Err: err}
}

// migrationLock is the advisory lock key migrations hold.
const migrationLock = 0x6d6f6465626f78 // "modebox"

// gcLock is the advisory lock key of collection, so replicas take turns.
const gcLock = migrationLock + 1

// migrations[i] brings the schema from version i to i+1.
var migrations = []string{
	`CREATE TABLE modebox_used_tokens (
		id bytea PRIMARY KEY,
		key_id text NOT NULL DEFAULT '',
		expires_at timestamptz NOT NULL,
		claimed_at timestamptz NOT NULL DEFAULT now()
	);
	CREATE INDEX modebox_used_tokens_expires ON modebox_used_tokens (expires_at);
	CREATE TABLE modebox_results (
		key bytea PRIMARY KEY,
		owner text NOT NULL,
		lease_until timestamptz,
		value bytea,
		expires_at timestamptz NOT NULL
	);
	CREATE INDEX modebox_results_expires ON modebox_results (expires_at);`,
}

// migrate creates the schema or brings it to SchemaVersion, under an
// advisory lock held for the transaction. A schema already at
// SchemaVersion is only read, so that a role without CREATE on the
// schema (docs/scaling.md's grants) opens the store.
func (s *Store) migrate(ctx context.Context) error {
	v, err := s.Version(ctx)
	if err != nil {
		return err
	}
	if v > len(migrations) {
		return &Error{Code: CodeSchemaTooNew, Message: fmt.Sprintf("the token store's schema is version %d; this modebox knows versions up to %d: upgrade it", v, len(migrations))}
	}
	if v == len(migrations) {
		return nil
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return unavailable("connecting to the token store", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
		return unavailable("locking the token store's schema", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS modebox_schema (
		version integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now()
	)`); err != nil {
		return &Error{Code: CodeUnavailable, Message: "creating the token store's version table", Err: err}
	}
	if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM modebox_schema").Scan(&v); err != nil {
		return unavailable("reading the token store's schema version", err)
	}
	if v > len(migrations) {
		return &Error{Code: CodeSchemaTooNew, Message: fmt.Sprintf("the token store's schema is version %d; this modebox knows versions up to %d: upgrade it", v, len(migrations))}
	}
	for i := v; i < len(migrations); i++ {
		if _, err := tx.Exec(ctx, migrations[i]); err != nil {
			return &Error{Code: CodeUnavailable, Message: fmt.Sprintf("migrating the token store's schema to version %d", i+1), Err: err}
		}
		if _, err := tx.Exec(ctx, "INSERT INTO modebox_schema (version) VALUES ($1)", i+1); err != nil {
			return unavailable("recording the schema version", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return unavailable("committing the token store's schema", err)
	}
	return nil
}

// Version returns the schema version recorded in the database, 0 when
// there is no schema yet.
func (s *Store) Version(ctx context.Context) (int, error) {
	var exists bool
	if err := s.pool.QueryRow(ctx, "SELECT to_regclass('modebox_schema') IS NOT NULL").Scan(&exists); err != nil {
		return 0, unavailable("reading the schema version", err)
	}
	if !exists {
		return 0, nil
	}
	var v int
	if err := s.pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM modebox_schema").Scan(&v); err != nil {
		return 0, unavailable("reading the schema version", err)
	}
	return v, nil
}

// Claim implements [modebox.TokenStore]: it records the token id as used,
// in one statement, and returns modebox.TokenUsedError(id) if it was
// already, or an error with modebox.CodeTokenExpired if expires is more
// than SkewAllowance before the database's clock (whatever this
// process's clock says). Any other failure is an *Error with
// CodeUnavailable.
func (s *Store) Claim(id string, expires time.Time) error {
	return s.ClaimKeyed(id, "", expires)
}

// ClaimKeyed is Claim that also records the id of the key that sealed
// the token (see [Store.KeyIDs]).
func (s *Store) ClaimKeyed(id, keyID string, expires time.Time) error {
	raw, err := hex.DecodeString(id)
	if err != nil || len(raw) != 16 || hex.EncodeToString(raw) != id {
		return &Error{Code: CodeInvalidID, Message: fmt.Sprintf("token id %q is not 32 lowercase hex characters", id)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.ClaimTimeout)
	defer cancel()
	// The database's clock decides expiry, as it does for collection
	// (GC): a token that expired more than the skew allowance ago by it
	// may have had its record collected, so it is refused whatever the
	// claiming replica's clock says.
	var fresh bool
	var inserted int
	err = s.pool.QueryRow(ctx, `WITH ok AS (SELECT $3::timestamptz >= now() - $4::interval AS fresh),
		ins AS (INSERT INTO modebox_used_tokens (id, key_id, expires_at)
			SELECT $1, $2, $3 FROM ok WHERE fresh ON CONFLICT (id) DO NOTHING RETURNING 1)
		SELECT (SELECT fresh FROM ok), (SELECT count(*) FROM ins)`,
		raw, keyID, expires, SkewAllowance).Scan(&fresh, &inserted)
	if err != nil {
		return unavailable("recording the token as used", err)
	}
	if !fresh {
		return &seal.Error{Code: modebox.CodeTokenExpired,
			Message: "the token expired by the token store's clock (this replica's clock is behind the database's); it cannot be resumed"}
	}
	if inserted == 0 {
		return modebox.TokenUsedError(id)
	}
	return nil
}

// SkewAllowance is how far past its expiry, by the database's clock, a
// token's used record is kept: claims of tokens expired longer ago are
// refused with modebox.CodeTokenExpired, and collection removes only
// records expired longer ago, so a record is never collected while a
// claim of its token could still succeed.
const SkewAllowance = time.Minute

// gcBatch is how many expired records one statement deletes.
const gcBatch = 5000

// GC deletes the records of tokens that expired before the earlier of
// now and the database's clock, less SkewAllowance, and retry-cache
// entries past their expiry by the database's clock, in batches found
// through the expiry indexes. A replica whose clock runs ahead so
// collects nothing early. If another replica is collecting it returns
// (0, nil) at once.
func (s *Store) GC(ctx context.Context, now time.Time) (removed int64, err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return 0, unavailable("collecting expired records", err)
	}
	defer conn.Release()
	var got bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", int64(gcLock)).Scan(&got); err != nil {
		return 0, unavailable("collecting expired records", err)
	}
	if !got {
		return 0, nil
	}
	defer func() {
		_, _ = conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(gcLock))
	}()
	for _, q := range []string{
		"DELETE FROM modebox_used_tokens WHERE id IN (SELECT id FROM modebox_used_tokens WHERE expires_at < least($1::timestamptz, now()) - $3::interval ORDER BY expires_at LIMIT $2)",
		"DELETE FROM modebox_results WHERE key IN (SELECT key FROM modebox_results WHERE expires_at < least($1::timestamptz + $3::interval, now()) ORDER BY expires_at LIMIT $2)",
	} {
		for {
			tag, err := conn.Exec(ctx, q, now, gcBatch, SkewAllowance)
			if err != nil {
				return removed, unavailable("collecting expired records", err)
			}
			removed += tag.RowsAffected()
			if tag.RowsAffected() < gcBatch {
				break
			}
		}
	}
	return removed, nil
}

func (s *Store) gcLoop() {
	defer close(s.gcDone)
	t := time.NewTicker(s.opts.GCInterval)
	defer t.Stop()
	for {
		select {
		case <-s.stopGC:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), s.opts.GCInterval)
			_, _ = s.GC(ctx, time.Now())
			cancel()
		}
	}
}

// KeyCount is how many of the recent claims were of tokens sealed with
// one key.
type KeyCount struct {
	KeyID  string
	Claims int
}

// KeyIDs returns the key ids of the latest claims (up to limit, by token
// expiry, through the expiry index), most used first. Claims made
// without a key id (Claim rather than ClaimKeyed) are left out.
func (s *Store) KeyIDs(ctx context.Context, limit int) ([]KeyCount, error) {
	rows, err := s.pool.Query(ctx, `SELECT key_id, count(*) FROM
		(SELECT key_id FROM modebox_used_tokens ORDER BY expires_at DESC LIMIT $1) recent
		WHERE key_id <> '' GROUP BY key_id ORDER BY count(*) DESC, key_id`, limit)
	if err != nil {
		return nil, unavailable("reading the key ids of recent claims", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeyCount, error) {
		var k KeyCount
		err := r.Scan(&k.KeyID, &k.Claims)
		return k, err
	})
	if err != nil {
		return nil, unavailable("reading the key ids of recent claims", err)
	}
	return out, nil
}
