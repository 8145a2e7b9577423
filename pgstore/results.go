package pgstore

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// The retry cache: entries keyed by an opaque digest, each either running
// (an owner holds a lease it renews) or done (a value, kept until it
// expires). Times are the database's (now()), so replicas' clocks need
// not agree. The methods implement mcpserver.SharedStore; each is bounded
// by Options.ClaimTimeout.

// bound limits one retry-cache call to ClaimTimeout, whatever ctx's
// deadline (a request's context often has none), so that a PostgreSQL
// that does not answer fails the call with CodeUnavailable rather than
// holding it for ever.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opts.ClaimTimeout)
}

// Begin takes key for this process when no live entry holds it: none, an
// expired one, or one whose owner's lease lapsed (the owner died). Then
// mine is true, and the caller does the work and calls Finish or Abandon,
// renewing the lease meanwhile. Otherwise value is the finished entry's
// value, or nil while another process holds the lease.
func (s *Store) Begin(ctx context.Context, key []byte, lease, keep time.Duration) (mine bool, value []byte, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	for range 3 {
		var owner string
		err = s.pool.QueryRow(ctx, `INSERT INTO modebox_results AS r (key, owner, lease_until, expires_at)
			VALUES ($1, $2, now() + $3::interval, now() + $4::interval)
			ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until,
				expires_at = EXCLUDED.expires_at, value = NULL
			WHERE r.expires_at < now() OR (r.value IS NULL AND r.lease_until < now())
			RETURNING owner`, key, s.owner, lease, keep).Scan(&owner)
		if err == nil {
			return true, nil, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return false, nil, unavailable("taking the retry-cache entry", err)
		}
		err = s.pool.QueryRow(ctx, "SELECT value FROM modebox_results WHERE key = $1", key).Scan(&value)
		if errors.Is(err, pgx.ErrNoRows) {
			continue // deleted in between: try again
		}
		if err != nil {
			return false, nil, unavailable("reading the retry-cache entry", err)
		}
		return false, value, nil
	}
	return false, nil, nil
}

// Renew extends this process's lease on a running entry (and its expiry,
// so that a long resume's entry is not collected while it runs).
func (s *Store) Renew(ctx context.Context, key []byte, lease time.Duration) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, `UPDATE modebox_results SET lease_until = now() + $3::interval,
			expires_at = greatest(expires_at, now() + $3::interval)
		WHERE key = $1 AND owner = $2 AND value IS NULL`, key, s.owner, lease)
	if err != nil {
		return unavailable("renewing the retry-cache lease", err)
	}
	return nil
}

// Finish records the value of an entry this process holds, kept for
// keep. An entry another process took over (after this one's lease
// lapsed) is left alone.
func (s *Store) Finish(ctx context.Context, key, value []byte, keep time.Duration) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, `UPDATE modebox_results SET value = $3, lease_until = NULL, expires_at = now() + $4::interval
		WHERE key = $1 AND owner = $2 AND value IS NULL`, key, s.owner, value, keep)
	if err != nil {
		return unavailable("recording the retry-cache entry", err)
	}
	return nil
}

// Abandon removes a running entry this process holds, so that the next
// Begin takes it at once.
func (s *Store) Abandon(ctx context.Context, key []byte) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, "DELETE FROM modebox_results WHERE key = $1 AND owner = $2 AND value IS NULL", key, s.owner)
	if err != nil {
		return unavailable("removing the retry-cache entry", err)
	}
	return nil
}

// Put stores a finished value under key, replacing any entry, kept for
// keep.
func (s *Store) Put(ctx context.Context, key, value []byte, keep time.Duration) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, `INSERT INTO modebox_results (key, owner, value, expires_at) VALUES ($1, $2, $3, now() + $4::interval)
		ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, value = EXCLUDED.value, lease_until = NULL, expires_at = EXCLUDED.expires_at`,
		key, s.owner, value, keep)
	if err != nil {
		return unavailable("storing the retry-cache entry", err)
	}
	return nil
}

// Get returns the finished, unexpired value under key, or nil.
func (s *Store) Get(ctx context.Context, key []byte) ([]byte, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var v []byte
	err := s.pool.QueryRow(ctx, "SELECT value FROM modebox_results WHERE key = $1 AND expires_at > now() AND value IS NOT NULL", key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, unavailable("reading the retry-cache entry", err)
	}
	return v, nil
}

// Delete removes the entry under key, whoever holds it.
func (s *Store) Delete(ctx context.Context, key []byte) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if _, err := s.pool.Exec(ctx, "DELETE FROM modebox_results WHERE key = $1", key); err != nil {
		return unavailable("removing the retry-cache entry", err)
	}
	return nil
}
