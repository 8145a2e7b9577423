package schema

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

type lineItem struct {
	SKU      string   `json:"sku" jsonschema:"stock keeping unit"`
	Quantity int      `json:"quantity"`
	Notes    []string `json:"notes,omitempty"`
}

type orderArgs struct {
	Customer string            `json:"customer" jsonschema:"customer name"`
	Items    []lineItem        `json:"items"`
	Due      *time.Time        `json:"due,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Rush     bool              `json:"rush,omitempty"`
	Priority uint8             `json:"priority,omitempty"`
	Extra    json.RawMessage   `json:"extra,omitempty"`
	Secret   string            `json:"-"`
	internal int               //lint:ignore U1000 an unexported field the schema must leave out
}

func TestForShape(t *testing.T) {
	raw, err := For[orderArgs]()
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if s["type"] != "object" || s["additionalProperties"] != false {
		t.Errorf("root = %v, want closed object", s)
	}
	if got, want := s["required"], []any{"customer", "items"}; !reflect.DeepEqual(got, want) {
		t.Errorf("required = %v, want %v", got, want)
	}
	props := s["properties"].(map[string]any)
	if _, ok := props["Secret"]; ok {
		t.Error(`json:"-" field present`)
	}
	if _, ok := props["internal"]; ok {
		t.Error("unexported field present")
	}
	if d := props["customer"].(map[string]any)["description"]; d != "customer name" {
		t.Errorf("description = %v", d)
	}
	if f := props["due"].(map[string]any)["format"]; f != "date-time" {
		t.Errorf("time.Time format = %v", f)
	}

	ptr, err := For[*orderArgs]()
	if err != nil || string(ptr) != string(raw) {
		t.Errorf("For[*orderArgs] = %s, %v; want same as For[orderArgs]", ptr, err)
	}
}

func TestForRoundTrip(t *testing.T) {
	raw, err := For[orderArgs]()
	if err != nil {
		t.Fatal(err)
	}
	v := mustCompile(t, string(raw))
	tests := []struct {
		name, instance, path, rule, msg string
	}{
		{"minimal", `{"customer":"ann","items":[]}`, "", "", ""},
		{"full", `{"customer":"ann","items":[{"sku":"A1","quantity":2,"notes":["x"]}],
			"due":"2025-01-02T03:04:05Z","labels":{"k":"v"},"rush":true,"priority":3,"extra":{"any":[1]}}`, "", "", ""},
		{"null slice", `{"customer":"ann","items":null}`, "", "", ""},
		{"missing required", `{"items":[]}`, "", "required", `missing property "customer"`},
		{"typo caught", `{"customer":"ann","items":[],"rsuh":true}`, "", "additionalProperties", `unexpected property "rsuh"`},
		{"nested type", `{"customer":"ann","items":[{"sku":"A","quantity":"2"}]}`, "/items/0/quantity", "type", "got string, want integer"},
		{"nested required", `{"customer":"ann","items":[{"sku":"A"}]}`, "/items/0", "required", `missing property "quantity"`},
		{"uint8 bound", `{"customer":"ann","items":[],"priority":300}`, "/priority", "maximum", "got 300, want <= 255"},
		{"bad time", `{"customer":"ann","items":[],"due":"tomorrow"}`, "/due", "format", `"tomorrow" is not a valid date-time`},
		{"map value type", `{"customer":"ann","items":[],"labels":{"k":1}}`, "/labels/k", "type", "got number, want string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, v, tt.instance, tt.path, tt.rule, tt.msg)
		})
	}

	// A value marshalled from the Go type validates against its schema.
	due := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	good, err := json.Marshal(orderArgs{Customer: "c", Items: []lineItem{{SKU: "s", Quantity: 1}}, Due: &due})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ValidateJSON(good); err != nil {
		t.Errorf("marshalled value rejected: %v", err)
	}
}

type node struct {
	Children []node `json:"children"`
}

func TestForErrors(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
	}{
		{"nil", nil},
		{"channel", reflect.TypeFor[chan int]()},
		{"func field", reflect.TypeFor[struct{ F func() }]()},
		{"int keys", reflect.TypeFor[map[int]string]()},
		{"recursive", reflect.TypeFor[node]()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := ForType(tt.typ)
			var ie *InferError
			if !errors.As(err, &ie) {
				t.Fatalf("ForType = %s, %v; want *InferError", raw, err)
			}
		})
	}
}
