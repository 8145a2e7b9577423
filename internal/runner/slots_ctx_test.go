package runner

import (
	"context"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/codes"
)

// A done context takes no slot, free or not: CANCELLED, or TIMEOUT for a
// deadline, in the queue as before it; nothing ran.
func TestSlotsRefuseDoneContext(t *testing.T) {
	g, err := NewSlots(1, 4, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, s := range []*Slots{g, nil} {
		for ctx, want := range map[context.Context]codes.Code{cancelled: codes.Cancelled, expired: codes.Timeout} {
			if release, err := s.Acquire(ctx); err == nil || err.Code != want {
				if release != nil {
					release()
				}
				t.Fatalf("a done context (%v) with a free slot: %+v, want %s", ctx.Err(), err, want)
			}
			if running, _ := s.InFlight(); running != 0 {
				t.Fatalf("a refused acquire holds a slot")
			}
		}
	}
	release, terr := g.Acquire(context.Background())
	if terr != nil {
		t.Fatal(terr)
	}
	defer release()
	ctx, cancel3 := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel3()
	if _, err := g.Acquire(ctx); err == nil || err.Code != codes.Timeout {
		t.Fatalf("a deadline that passes in the queue: %+v, want TIMEOUT", err)
	}
}
