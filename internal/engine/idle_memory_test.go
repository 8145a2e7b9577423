package engine

import "testing"

// pagesBeforeIntl is the linear memory of an idle run (the snapshot's
// pages) before Intl and the web APIs were in the prelude.
const pagesBeforeIntl = 15

// The memory of an idle run stays within 25% of what it was before Intl
// (issue 17's target): the prelude's functions keep no copy of their source
// text ("use nosource", patch x5); without that it is 20 pages.
func TestIdleRunMemory(t *testing.T) {
	e, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	if max := uint32(pagesBeforeIntl * 5 / 4); e.snap.pages > max {
		t.Fatalf("an idle run has %d pages of linear memory, over %d (15 before Intl, +25%%)", e.snap.pages, max)
	}
	t.Logf("%d pages (%d before Intl), snapshot %d B", e.snap.pages, pagesBeforeIntl, e.SnapshotBytes())
}
