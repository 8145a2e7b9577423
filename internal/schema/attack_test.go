package schema

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestAttackViolationsBounded: a value with two violations per array entry
// costs, beyond the library's own error tree, only the few violations
// reported: the report is not built from every leaf and then cut.
func TestAttackViolationsBounded(t *testing.T) {
	const n = 20000
	v := mustCompile(t, uniqueSchema)
	inst, err := decodeJSON(badArgs(n))
	if err != nil {
		t.Fatal(err)
	}
	v.Validate(inst) // warm up (regexps, lazily built tables)
	library := allocated(func() { _ = v.sch.Validate(inst) })
	var verr error
	total := allocated(func() { verr = v.Validate(inst) })
	var ve *ValidationError
	if !errors.As(verr, &ve) {
		t.Fatalf("Validate = %v, want a *ValidationError", verr)
	}
	// the report is what it was: ordered by path, the count exact (the
	// entries are equal: uniqueItems, then two type failures per entry)
	if len(ve.Violations) != maxViolations || ve.Omitted != 2*n+1-maxViolations || ve.Incomplete {
		t.Errorf("Violations %d, Omitted %d, Incomplete %v; want %d, %d, false",
			len(ve.Violations), ve.Omitted, ve.Incomplete, maxViolations, 2*n+1-maxViolations)
	}
	if vi := ve.Violations[0]; vi.Path != "/items" || vi.Rule != "uniqueItems" {
		t.Errorf("violation 0 = %v, want uniqueItems at /items", vi)
	}
	for i, vi := range ve.Violations[1:] {
		want := "/items/" + fmtInt(i/2) + "/" + string(rune('a'+i%2))
		if vi.Path != want || vi.Rule != "type" {
			t.Errorf("violation %d = %v, want type at %s", i+1, vi, want)
		}
	}
	if !strings.HasSuffix(verr.Error(), "(and 39998 more)") {
		t.Errorf("Error() = %q", verr)
	}
	// collecting the report may cost a tenth of the library's tree
	if extra := int64(total) - int64(library); extra > int64(library/10)+1<<20 {
		t.Errorf("reporting allocated %d bytes beyond the library's %d", extra, library)
	}
}

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// signArrays returns n distinct arrays of k numbers ±1: the library's
// uniqueItems hash ignores the sign, so all n land in one bucket and are
// compared pairwise.
func signArrays(n, k int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for j := range k {
			if j > 0 {
				b.WriteByte(',')
			}
			if i>>j&1 == 1 {
				b.WriteString("-1")
			} else {
				b.WriteString("1")
			}
		}
		b.WriteByte(']')
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// TestAttackUniqueItemsBounded: uniqueItems over distinct items that share
// the library's hash is quadratic; its comparisons count as steps, so such
// a value is refused within MaxValidationSteps.
func TestAttackUniqueItemsBounded(t *testing.T) {
	v := mustCompile(t, `{"type":"array","uniqueItems":true}`)
	err := v.ValidateJSON(signArrays(2048, 11)) // ~2M comparisons
	var le *LimitError
	if !errors.As(err, &le) {
		t.Fatalf("ValidateJSON(2048 sign arrays) = %v, want a *LimitError", err)
	}
	// few collisions are still checked, duplicates still found
	if err := v.ValidateJSON(signArrays(64, 11)); err != nil {
		t.Errorf("64 sign arrays: %v", err)
	}
	err = v.ValidateJSON([]byte(`[[1,-1],[-1,1],[2],[-1,1]]`))
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Rule != "uniqueItems" || ve.Message != "items 1 and 3 are equal" {
		t.Errorf("duplicates: %v", err)
	}
	// many equal items cost nothing: the first pair stops the check
	if err := v.ValidateJSON([]byte("[" + strings.Repeat("0,", 100000) + "0]")); err == nil || !errors.As(err, &ve) {
		t.Errorf("equal items: %v", err)
	}
}

// TestAttackConcurrentDecodeBounded: calls of one validator waiting for
// their turn do not each hold a decoded copy of their arguments.
func TestAttackConcurrentDecodeBounded(t *testing.T) {
	const callers = 16
	v := mustCompile(t, uniqueSchema)
	data := badArgs(20000)
	one := allocated(func() { _, _ = decodeJSON(data) })

	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	v.m.mu.Lock() // a validation in progress
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = v.ValidateJSON(data)
		}()
	}
	// wait until every caller waits for the validator
	deadline := time.Now().Add(time.Minute)
	for waiting(callers) < callers {
		if time.Now().After(deadline) {
			v.m.mu.Unlock()
			t.Fatalf("only %d callers are waiting", waiting(callers))
		}
		time.Sleep(10 * time.Millisecond)
	}
	var held runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&held)
	v.m.mu.Unlock()
	wg.Wait()
	if grew := int64(held.HeapAlloc) - int64(base.HeapAlloc); grew > int64(2*one) {
		t.Errorf("%d waiting callers hold %d bytes (one decode allocates %d)", callers, grew, one)
	}
}

// waiting counts goroutines blocked on a mutex inside ValidateJSONContext.
func waiting(max int) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "sync.(*Mutex).Lock") && strings.Contains(g, "ValidateJSONContext") {
			count++
		}
	}
	return count
}
