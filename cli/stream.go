package cli

import (
	"context"
	"errors"
)

// errKey marks a token key that cannot be loaded.
var errKey = errors.New("token key")

// streamLogs arranges for a run's console lines to be printed on stderr as
// they are logged (text output only); streamed reports whether it did.
func streamLogs(ctx context.Context, g *globals, s Streams) (_ context.Context, streamed bool) {
	return ctx, false
}
