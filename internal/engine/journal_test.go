package engine

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestJournalCloneIsDeep: a clone shares no bytes with its journal (the
// values are packed into one buffer), an append to one of its values
// cannot reach the next, and empty values stay nil.
func TestJournalCloneIsDeep(t *testing.T) {
	j := &Journal{Seed: 7, Clock: []float64{1.5}, Calls: []JournalCall{
		{ID: 1, Tool: "a", Args: "d1", OK: true, Value: json.RawMessage(`{"x":1}`)},
		{ID: 2, Tool: "b", Args: "d2", Value: nil},
		{ID: 3, Tool: "a", Args: "d3", OK: true, Value: json.RawMessage(`"y"`)},
		{ID: 4, Tool: "c", Args: "d4", OK: true, Value: json.RawMessage{}},
	}}
	want := `{"seed":7,"clock":[1.5],"calls":[{"id":1,"tool":"a","args":"d1","ok":true,"value":{"x":1}},` +
		`{"id":2,"tool":"b","args":"d2","ok":false,"value":null},{"id":3,"tool":"a","args":"d3","ok":true,"value":"y"},` +
		`{"id":4,"tool":"c","args":"d4","ok":true,"value":null}]}`
	c := j.Clone()
	if got, _ := json.Marshal(c); string(got) != want {
		t.Fatalf("clone %s, want %s", got, want)
	}
	if c.Calls[1].Value != nil || c.Calls[3].Value != nil {
		t.Fatal("an empty value is not nil in the clone")
	}
	_ = append(c.Calls[0].Value, "X"...) // room for it, were the cap not cut
	if string(c.Calls[2].Value) != `"y"` {
		t.Fatalf("an append to one value changed the next: %s", c.Calls[2].Value)
	}
	j.Calls[0].Value[1] = 'Z'
	j.Clock[0] = 9
	if string(c.Calls[0].Value) != `{"x":1}` || c.Clock[0] != 1.5 {
		t.Fatal("the clone shares memory with its journal")
	}
	if !reflect.DeepEqual((*Journal)(nil).Clone(), (*Journal)(nil)) {
		t.Fatal("nil.Clone() is not nil")
	}
}
