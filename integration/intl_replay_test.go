package integration_test

import (
	"bytes"
	"testing"

	"github.com/modebox/modebox"
)

// Intl answers and crypto values are replay-safe: a run replayed from its
// journal gives the same bytes, and two runs with different seeds differ
// only in the random parts.
func TestIntlAndCryptoReplay(t *testing.T) {
	e := newEngine(t)
	code := `
		const now = new Date();
		return {
			uuid: crypto.randomUUID(),
			bytes: Array.from(crypto.getRandomValues(new Uint8Array(8))),
			date: now.toLocaleString('en-US', {timeZone: 'America/New_York', dateStyle: 'full', timeStyle: 'long'}),
			money: (1234.5).toLocaleString('de-DE', {style: 'currency', currency: 'EUR'}),
			sorted: ['b', 'Ä', 'a'].sort((x, y) => x.localeCompare(y, 'de')),
		};`
	first := run(t, e, code, modebox.RunOptions{})
	if first.Error != nil || first.Journal == nil {
		t.Fatalf("%+v", first.Error)
	}
	again := run(t, e, code, modebox.RunOptions{Journal: first.Journal})
	if again.Error != nil || !bytes.Equal(again.Value, first.Value) {
		t.Fatalf("replay differs:\n%s\n%s", again.Value, first.Value)
	}
	a := run(t, e, `return crypto.randomUUID()`, modebox.RunOptions{Seed: 1})
	b := run(t, e, `return crypto.randomUUID()`, modebox.RunOptions{Seed: 2})
	c := run(t, e, `return crypto.randomUUID()`, modebox.RunOptions{Seed: 1})
	if bytes.Equal(a.Value, b.Value) || !bytes.Equal(a.Value, c.Value) {
		t.Fatalf("uuids by seed: %s %s %s", a.Value, b.Value, c.Value)
	}
}
