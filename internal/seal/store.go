package seal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// Store records which tokens were redeemed, so that each opens once.
type Store interface {
	// Claim marks the token id as used. It returns an *Error with code
	// TOKEN_USED if the id was claimed before, and succeeds for exactly
	// one of any number of concurrent claims of an id. expires is the
	// token's expiry; after it the record may be forgotten, as the token
	// no longer opens anyway.
	Claim(id string, expires time.Time) error
}

// KeyedStore is a [Store] that also records which key sealed each token
// it claims, so that replicas sharing the store can check that they hold
// the same keys. [Keyring.OpenOnce] calls ClaimKeyed instead of Claim
// when the store has it; ClaimKeyed has Claim's contract.
type KeyedStore interface {
	Store
	ClaimKeyed(id, keyID string, expires time.Time) error
}

// used is the error of a second claim.
func used(id string) *Error {
	return fail(codes.TokenUsed, "token "+id+" was already used (or revoked); each token resumes a run once")
}

// DirStore is a [Store] that keeps one file per claimed id in a directory,
// so that claims hold across processes and restarts: a claim creates the
// file exclusively (O_CREATE|O_EXCL), which the file system grants to one
// process only. The file holds the token's expiry, for [DirStore.GC].
type DirStore struct {
	// Dir is the directory of claim files; Claim creates it (mode 0700)
	// if needed.
	Dir string
}

// DefaultStore returns the DirStore modebox uses: used-tokens under
// modebox's state directory, $XDG_STATE_HOME/modebox or else
// ~/.local/state/modebox. (State, not cache: deleting it would let used
// tokens that have not expired yet be redeemed again.)
func DefaultStore() (*DirStore, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("seal: finding the state directory: %w", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	return &DirStore{Dir: filepath.Join(base, "modebox", "used-tokens")}, nil
}

// Claim implements [Store]. The id must be a token id (32 lowercase hex
// characters), so that it cannot name a path outside Dir. The claim file
// is flushed to disk before Claim returns.
func (s *DirStore) Claim(id string, expires time.Time) error {
	if !validID(id) {
		return fmt.Errorf("seal: token id %q is not %d lowercase hex characters", id, 2*idSize)
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("seal: recording the token as used: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(s.Dir, id), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return used(id)
	}
	if err != nil {
		return fmt.Errorf("seal: recording the token as used: %w", err)
	}
	// The claim is made; a failure below leaves the id claimed (the
	// safe side) but is still reported.
	_, err = f.WriteString(strconv.FormatInt(expires.Unix(), 10) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("seal: recording the token as used: %w", err)
	}
	syncDir(s.Dir)
	return nil
}

// GC removes the claims of tokens that expired before now (less
// [ClockSkew], for safety), and returns how many it removed. A claim file
// whose expiry cannot be read (a claim interrupted by a crash) is removed
// once it is older than [MaxLifetime], since its token has expired by then.
// Files that are not claim files are left alone. A missing Dir is not an
// error.
func (s *DirStore) GC(now time.Time) (removed int, err error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("seal: cleaning used tokens: %w", err)
	}
	cutoff := now.Add(-ClockSkew)
	var errs []error
	for _, e := range entries {
		if !validID(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(s.Dir, e.Name())
		if !claimExpired(path, cutoff) {
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed++
	}
	if len(errs) > 0 {
		return removed, fmt.Errorf("seal: cleaning used tokens: %w", errors.Join(errs...))
	}
	return removed, nil
}

// claimExpired reports whether the claim file at path is for a token that
// expired before cutoff.
func claimExpired(path string, cutoff time.Time) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	if sec, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil {
		return time.Unix(sec, 0).Before(cutoff)
	}
	fi, err := os.Stat(path)
	return err == nil && fi.ModTime().Before(cutoff.Add(-MaxLifetime))
}

// MemoryStore is a [Store] in memory, for tests and for library users
// whose tokens never outlive the process. The zero value is ready to use
// and it is safe for concurrent use.
type MemoryStore struct {
	mu   sync.Mutex
	used map[string]time.Time
}

// Claim implements [Store].
func (m *MemoryStore) Claim(id string, expires time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.used[id]; ok {
		return used(id)
	}
	if m.used == nil {
		m.used = map[string]time.Time{}
	}
	m.used[id] = expires
	return nil
}

// GC forgets the claims of tokens that expired before now (less
// [ClockSkew]) and returns how many it forgot.
func (m *MemoryStore) GC(now time.Time) (removed int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cutoff := now.Add(-ClockSkew)
	for id, exp := range m.used {
		if exp.Before(cutoff) {
			delete(m.used, id)
			removed++
		}
	}
	return removed
}
