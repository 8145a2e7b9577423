package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// TestConcurrentWrites: 8 goroutines write 1,000 lines each while another
// reads; every line arrives whole (the race detector checks the rest).
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				_ = b.String()
			}
		}
	}()
	for range 8 {
		wg.Go(func() {
			for range 1000 {
				if _, err := b.Write([]byte("0123456789\n")); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	s := b.String()
	if n := strings.Count(s, "0123456789\n"); n != 8000 || len(s) != 8000*11 {
		t.Fatalf("%d whole lines in %d bytes, want 8000 in %d", n, len(s), 8000*11)
	}
}
