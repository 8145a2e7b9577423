package tsx

import (
	"container/list"
	"crypto/sha256"
	"sync"
	"unsafe"
)

// cacheSize is how many compiled programs the package keeps.
const cacheSize = 256

// cacheKey identifies a (language, source) pair.
type cacheKey [sha256.Size]byte

// keyFor hashes the language, whether the program may skip esbuild, and
// the exact source text.
func keyFor(lang Lang, allowDirect bool, src string) cacheKey {
	h := sha256.New()
	d := byte(0)
	if allowDirect {
		d = 1
	}
	h.Write([]byte{byte(lang), d})
	// the text's bytes as they are, not a copy: a hash.Hash's Write
	// neither modifies nor keeps what it is given
	h.Write(unsafe.Slice(unsafe.StringData(src), len(src)))
	var k cacheKey
	h.Sum(k[:0])
	return k
}

// lru is a fixed-size least-recently-used cache of compiled programs, safe
// for concurrent use. Programs are immutable, so one is shared by every
// caller that compiles the same source.
type lru struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *lruEntry, most recently used first
	items map[cacheKey]*list.Element
}

// lruEntry is one cached program.
type lruEntry struct {
	key cacheKey
	p   *Program
}

// newLRU returns an empty cache holding at most max programs.
func newLRU(max int) *lru {
	return &lru{max: max, order: list.New(), items: make(map[cacheKey]*list.Element)}
}

// get returns the program cached under k and marks it recently used.
func (c *lru) get(k cacheKey) (*Program, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry).p, true
}

// add caches p under k, evicting the least recently used program if the
// cache is full.
func (c *lru) add(k cacheKey, p *Program) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		el.Value.(*lruEntry).p = p
		c.order.MoveToFront(el)
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry{key: k, p: p})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*lruEntry).key)
	}
}

// len returns the number of cached programs.
func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// programs is the package-wide cache used by Transform.
var programs = newLRU(cacheSize)
