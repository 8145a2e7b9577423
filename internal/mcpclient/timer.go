package mcpclient

import (
	"context"
	"errors"
	"time"
)

// errCallTimeout is the cause of a call's context ended by the per-call
// timeout.
var errCallTimeout = errors.New("mcpclient: per-call timeout")

// withCallTimeout returns a context for one call to s. It ends with cause
// ErrClosed when the manager is closed (so that closing the sessions need
// not wait for the calls in flight), and with cause errCallTimeout d after
// the call started, except that it does not time out while one of s's
// elicitations waits for the Elicitor (a human may take longer than d to
// answer) and then ends no sooner than d after the last answer.
// Elicitations cannot be tied to the call that caused them, so any pending
// elicitation of s holds off all of s's calls.
func (s *server) withCallTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(s.m.base, func() { cancel(ErrClosed) })
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
			pending, last := s.eliciting, s.lastElicit
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
		unhook()
		close(stop)
		cancel(context.Canceled)
	}
}
