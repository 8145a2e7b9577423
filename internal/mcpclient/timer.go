package mcpclient

import (
	"context"
	"errors"
	"time"
)

// errCallTimeout is the cause of a call's context ended by the per-call
// timeout.
var errCallTimeout = errors.New("mcpclient: per-call timeout")

// call is one call in flight to a server, to which the server's
// elicitations are attributed.
type call struct {
	ctx   context.Context // the caller's context: its values reach the Elicitor
	token string          // its progress token, unique in the process

	// under the server's mu
	eliciting  int       // elicitations waiting for the Elicitor
	asked      int       // elicitations attributed to this call so far
	lastElicit time.Time // when the last one was answered
}

// withCallTimeout returns a context for one call to s. It ends with cause
// ErrClosed when the manager is closed (so that closing the sessions need
// not wait for the calls in flight), and with cause errCallTimeout d after
// the call started, except that it does not time out while one of the
// call's own elicitations waits for the Elicitor (a human may take longer
// than d to answer) and then ends no sooner than d after the last answer.
// The call is registered with s, by its progress token, until the
// returned cancel func runs.
func (s *server) withCallTimeout(ctx context.Context, d time.Duration, token string) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(s.m.base, func() { cancel(ErrClosed) })
	c := &call{ctx: ctx, token: token}
	s.mu.Lock()
	if s.calls == nil {
		s.calls = map[*call]bool{}
	}
	s.calls[c] = true
	s.mu.Unlock()
	stop := make(chan struct{})
	go func() {
		t := time.NewTimer(d)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-cctx.Done():
				return
			case <-t.C:
			}
			s.mu.Lock()
			pending, last := c.eliciting, c.lastElicit
			s.mu.Unlock()
			if pending > 0 {
				t.Reset(d)
				continue
			}
			if left := d - time.Since(last); left > 0 {
				t.Reset(left)
				continue
			}
			cancel(errCallTimeout)
			return
		}
	}()
	return cctx, func() {
		s.mu.Lock()
		delete(s.calls, c)
		s.mu.Unlock()
		unhook()
		close(stop)
		cancel(context.Canceled)
	}
}
