package tsx

import (
	"container/list"
	"crypto/sha256"
	"sync"
	"unsafe"
)

// cacheSize is how many compiled programs the package keeps.
const cacheSize = 256

// cacheBytes bounds the memory the cached programs hold (their texts, and
// the source maps made for their errors); a program of over cacheBytes/8
// is not cached. Bounded by count alone, 256 programs of 4 MiB with their
// maps held ~25 GB after their runs.
const cacheBytes = 64 << 20

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
	mu       sync.Mutex
	max      int
	maxBytes int64
	order    *list.List // of *lruEntry, most recently used first
	items    map[cacheKey]*list.Element
}

// lruEntry is one cached program.
type lruEntry struct {
	key cacheKey
	p   *Program
}

// newLRU returns an empty cache holding at most max programs, of at most
// maxBytes together.
func newLRU(max int, maxBytes int64) *lru {
	return &lru{max: max, maxBytes: maxBytes, order: list.New(), items: make(map[cacheKey]*list.Element)}
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
	if p.size() > c.maxBytes/8 {
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry{key: k, p: p})
	// the sizes are read again: a source map made since the last add
	// grew its program
	total := int64(0)
	for el := c.order.Front(); el != nil; el = el.Next() {
		total += el.Value.(*lruEntry).p.size()
	}
	for c.order.Len() > c.max || (total > c.maxBytes && c.order.Len() > 1) {
		last := c.order.Back()
		total -= last.Value.(*lruEntry).p.size()
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
var programs = newLRU(cacheSize, cacheBytes)
