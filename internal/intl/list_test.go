package intl

import (
	"encoding/json"
	"fmt"
	"testing"
)

// Spanish lists as Node 22 writes them (the expected strings are Node's):
// ICU writes "e" for "y" before the sound "i" and "u" for "o" before
// the sound "o", and for nothing else (not accented vowels).
func TestSpanishListConjunctions(t *testing.T) {
	cases := []struct {
		locale, typ, style string
		items              []string
		want               string
	}{
		{"es", "conjunction", "long", []string{"padre", "hijo"}, "padre e hijo"},
		{"es", "disjunction", "long", []string{"siete", "hijo"}, "siete o hijo"},
		{"es", "conjunction", "long", []string{"padre", "hielo"}, "padre y hielo"},
		{"es", "disjunction", "long", []string{"siete", "hielo"}, "siete o hielo"},
		{"es", "conjunction", "long", []string{"padre", "Iglesia"}, "padre e Iglesia"},
		{"es", "disjunction", "long", []string{"siete", "Iglesia"}, "siete o Iglesia"},
		{"es", "conjunction", "long", []string{"padre", "ídolo"}, "padre y ídolo"},
		{"es", "disjunction", "long", []string{"siete", "ídolo"}, "siete o ídolo"},
		{"es", "conjunction", "long", []string{"padre", "hierro"}, "padre y hierro"},
		{"es", "disjunction", "long", []string{"siete", "hierro"}, "siete o hierro"},
		{"es", "conjunction", "long", []string{"padre", "hia"}, "padre y hia"},
		{"es", "disjunction", "long", []string{"siete", "hia"}, "siete o hia"},
		{"es", "conjunction", "long", []string{"padre", "hi"}, "padre e hi"},
		{"es", "disjunction", "long", []string{"siete", "hi"}, "siete o hi"},
		{"es", "conjunction", "long", []string{"padre", "Hi"}, "padre e Hi"},
		{"es", "disjunction", "long", []string{"siete", "Hi"}, "siete o Hi"},
		{"es", "conjunction", "long", []string{"padre", "HIELO"}, "padre y HIELO"},
		{"es", "disjunction", "long", []string{"siete", "HIELO"}, "siete o HIELO"},
		{"es", "conjunction", "long", []string{"padre", "i"}, "padre e i"},
		{"es", "disjunction", "long", []string{"siete", "i"}, "siete o i"},
		{"es", "conjunction", "long", []string{"padre", "higo"}, "padre e higo"},
		{"es", "disjunction", "long", []string{"siete", "higo"}, "siete o higo"},
		{"es", "conjunction", "long", []string{"padre", "hiu"}, "padre e hiu"},
		{"es", "disjunction", "long", []string{"siete", "hiu"}, "siete o hiu"},
		{"es", "conjunction", "long", []string{"padre", "hio"}, "padre e hio"},
		{"es", "disjunction", "long", []string{"siete", "hio"}, "siete o hio"},
		{"es", "conjunction", "long", []string{"padre", "ocho"}, "padre y ocho"},
		{"es", "disjunction", "long", []string{"siete", "ocho"}, "siete u ocho"},
		{"es", "conjunction", "long", []string{"padre", "oso"}, "padre y oso"},
		{"es", "disjunction", "long", []string{"siete", "oso"}, "siete u oso"},
		{"es", "conjunction", "long", []string{"padre", "Hola"}, "padre y Hola"},
		{"es", "disjunction", "long", []string{"siete", "Hola"}, "siete u Hola"},
		{"es", "conjunction", "long", []string{"padre", "hotel"}, "padre y hotel"},
		{"es", "disjunction", "long", []string{"siete", "hotel"}, "siete u hotel"},
		{"es", "conjunction", "long", []string{"padre", "ó"}, "padre y ó"},
		{"es", "disjunction", "long", []string{"siete", "ó"}, "siete o ó"},
		{"es", "conjunction", "long", []string{"padre", "8"}, "padre y 8"},
		{"es", "disjunction", "long", []string{"siete", "8"}, "siete u 8"},
		{"es", "conjunction", "long", []string{"padre", "80"}, "padre y 80"},
		{"es", "disjunction", "long", []string{"siete", "80"}, "siete u 80"},
		{"es", "conjunction", "long", []string{"padre", "8.5"}, "padre y 8.5"},
		{"es", "disjunction", "long", []string{"siete", "8.5"}, "siete u 8.5"},
		{"es", "conjunction", "long", []string{"padre", "11"}, "padre y 11"},
		{"es", "disjunction", "long", []string{"siete", "11"}, "siete u 11"},
		{"es", "conjunction", "long", []string{"padre", "11 gatos"}, "padre y 11 gatos"},
		{"es", "disjunction", "long", []string{"siete", "11 gatos"}, "siete u 11 gatos"},
		{"es", "conjunction", "long", []string{"padre", "110"}, "padre y 110"},
		{"es", "disjunction", "long", []string{"siete", "110"}, "siete o 110"},
		{"es", "conjunction", "long", []string{"padre", "yodo"}, "padre y yodo"},
		{"es", "disjunction", "long", []string{"siete", "yodo"}, "siete o yodo"},
		{"es", "conjunction", "long", []string{"padre", "o"}, "padre y o"},
		{"es", "disjunction", "long", []string{"siete", "o"}, "siete u o"},
		{"es", "conjunction", "long", []string{"padre", "h"}, "padre y h"},
		{"es", "disjunction", "long", []string{"siete", "h"}, "siete o h"},
		{"es", "conjunction", "long", []string{"padre", ""}, "padre y "},
		{"es", "disjunction", "long", []string{"siete", ""}, "siete o "},
		{"es", "conjunction", "long", []string{"a", "b", "hijo"}, "a, b e hijo"},
		{"es", "disjunction", "long", []string{"a", "b", "ocho"}, "a, b u ocho"},
		{"es", "conjunction", "short", []string{"x", "Irene"}, "x e Irene"},
		{"es", "unit", "short", []string{"x", "hijo"}, "x e hijo"},
		{"es", "unit", "narrow", []string{"x", "hijo"}, "x hijo"},
		{"es-MX", "conjunction", "long", []string{"a", "b", "hijo"}, "a, b e hijo"},
		{"es-419", "disjunction", "long", []string{"siete", "ocho"}, "siete u ocho"},
		{"pt", "conjunction", "long", []string{"a", "isso"}, "a e isso"},
		{"it", "disjunction", "long", []string{"a", "otto"}, "a o otto"},
	}
	for _, c := range cases {
		items, _ := json.Marshal(c.items)
		req := fmt.Sprintf(`["lf",[%q],{"type":%q,"style":%q},"format",%s]`, c.locale, c.typ, c.style, items)
		if got := string(Handle([]byte(req))); got != "s"+c.want {
			t.Errorf("%s: got %q, want %q", req, got, "s"+c.want)
		}
	}
}
