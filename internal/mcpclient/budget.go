package mcpclient

import "sync"

// ResultBudget is how many bytes of big stdio messages (1 MiB or more) the
// process decodes and converts at once, over all servers and Managers. A
// big message waits, with its line read, until the budget has room for
// it; one message larger than the whole budget waits until the budget is
// free. The budget is held from the end of the line until the call it
// answers has its result converted; a message that is not a call's final
// result (another response, a result that asks for input, a request or
// notification) gives it back once it is decoded.
const ResultBudget = 32 << 20

// resultBudget is the process-wide budget.
var resultBudget = newBudget(ResultBudget)

// budget is a first-come first-served counting semaphore of bytes.
type budget struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters []*budgetWaiter
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed when the bytes are granted
}

func newBudget(size int64) *budget { return &budget{size: size} }

// acquire takes n bytes (at most the whole budget), waiting in line until
// they are free or done is closed. It returns the function that gives
// them back (idempotent) and true, or false when done was closed first.
func (b *budget) acquire(n int64, done <-chan struct{}) (func(), bool) {
	n = min(n, b.size)
	b.mu.Lock()
	if len(b.waiters) == 0 && b.used+n <= b.size {
		b.used += n
		b.mu.Unlock()
		return b.releaser(n), true
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return b.releaser(n), true
	case <-done:
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, x := range b.waiters {
			if x == w {
				b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
				b.grantLocked()
				return nil, false
			}
		}
		// granted meanwhile: give it back
		b.used -= n
		b.grantLocked()
		return nil, false
	}
}

// releaser returns the idempotent function that gives n bytes back.
func (b *budget) releaser(n int64) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.used -= n
			b.grantLocked()
			b.mu.Unlock()
		})
	}
}

// grantLocked serves the waiters in order while the first one fits.
func (b *budget) grantLocked() {
	for len(b.waiters) > 0 && b.used+b.waiters[0].n <= b.size {
		w := b.waiters[0]
		b.waiters = b.waiters[1:]
		b.used += w.n
		close(w.ready)
	}
}

// inUse returns the bytes held now (for tests).
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
