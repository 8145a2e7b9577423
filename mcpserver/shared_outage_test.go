package mcpserver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// downStore is a shared store whose every call fails, as PostgreSQL down.
type downStore struct{}

var errDown = errors.New("TOKEN_STORE_UNAVAILABLE: connection refused")

func (downStore) Begin(context.Context, []byte, time.Duration, time.Duration) (bool, []byte, error) {
	return false, nil, errDown
}
func (downStore) Renew(context.Context, []byte, time.Duration) error          { return errDown }
func (downStore) Finish(context.Context, []byte, []byte, time.Duration) error { return errDown }
func (downStore) Abandon(context.Context, []byte) error                       { return errDown }
func (downStore) Put(context.Context, []byte, []byte, time.Duration) error    { return errDown }
func (downStore) Get(context.Context, []byte) ([]byte, error)                 { return nil, errDown }
func (downStore) Delete(context.Context, []byte) error                        { return errDown }

// A retry whose requestState this replica does not hold, while the
// shared store is down, says the store is unavailable (try again), not
// that the requestState was never issued.
func TestSharedAskLookupStoreDown(t *testing.T) {
	eng, _ := newEngine(t)
	s := New(eng, Options{ApproveTool: true, Shared: &Shared{Store: downStore{}, Keys: [][]byte{testKey(t)}}})
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{mcp.MetaKeyProtocolVersion: version20260728}}}
	_, err := s.issuedState(context.Background(), req, "some-token-issued-elsewhere")
	if err == nil || !strings.Contains(err.Error(), string(modebox.CodeTokenStoreUnavailable)) || strings.Contains(err.Error(), "not issued") {
		t.Fatalf("issuedState with the shared store down: %v, want %s", err, modebox.CodeTokenStoreUnavailable)
	}
	// A pause stored while the store is down is still known here.
	s.asks.put("tok", &ask{calls: []modebox.PendingCall{{ID: 1, Tool: "t"}}})
	if a, err := s.issuedState(context.Background(), req, "tok"); err != nil || a == nil {
		t.Fatalf("a pause kept here: %v", err)
	}
}
