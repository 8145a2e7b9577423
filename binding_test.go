package modebox

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// leafPaths lists every field reachable from t (through pointers, slices
// and nested structs of this module's config types) as a dotted path,
// with containers listed too.
func leafPaths(t reflect.Type, prefix string, out map[string]reflect.Type) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			break
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || !strings.HasPrefix(t.PkgPath(), "github.com/modebox/modebox") {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		p := join(prefix, f.Name)
		out[p] = f.Type
		if _, skip := notBound[p]; !skip {
			leafPaths(f.Type, p, out)
		}
	}
}

// withField returns a fresh EngineConfig whose containers along path are
// allocated (one element for slices) and whose field at path is set by
// set (or left zero when set is nil).
func withField(t *testing.T, path string, set func(reflect.Value)) EngineConfig {
	var cfg EngineConfig
	v := reflect.ValueOf(&cfg).Elem()
	for _, name := range strings.Split(path, ".") {
		v = into(v)
		if !v.CanSet() {
			t.Fatalf("%s: %s is unexported", path, name)
		}
		v = v.FieldByName(name)
		if !v.IsValid() {
			t.Fatalf("%s: no field %s", path, name)
		}
	}
	if set != nil {
		set(v)
	}
	return cfg
}

// into allocates pointers and one slice element until v is a struct.
func into(v reflect.Value) reflect.Value {
	for {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		case reflect.Slice:
			if v.Len() == 0 {
				v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			}
			v = v.Index(0)
		default:
			return v
		}
	}
}

// nonZero sets v to a non-zero value of its type, reporting false for a
// kind it cannot make (interfaces).
func nonZero(v reflect.Value) bool {
	if !v.CanSet() {
		return false // unexported
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(7)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(`{"type":"object"}`))
			return true
		}
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		return nonZero(v.Index(0))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		if !nonZero(k) || !nonZero(e) {
			return false
		}
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Func:
		v.Set(reflect.MakeFunc(v.Type(), func([]reflect.Value) []reflect.Value { panic("not called") }))
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && nonZero(v.Field(i)) {
				return true
			}
		}
		return false
	default:
		return false
	}
	return true
}

func mustBind(t *testing.T, cfg EngineConfig) []byte {
	t.Helper()
	b, err := configBinding(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every field of the configuration is bound to continuation tokens
// (changing it changes the binding) unless notBound lists it with a
// reason, in which case changing it leaves the binding as it was. A field
// added to EngineConfig, or to any configuration type it holds
// (ShellConfig, FetchConfig, FSConfig, Mount, ...), fails this test until
// it is bound or listed.
func TestBindingCoversEveryField(t *testing.T) {
	paths := map[string]reflect.Type{}
	leafPaths(reflect.TypeFor[EngineConfig](), "", paths)
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range paths {
			if !yield(p) {
				return
			}
		}
	}) {
		excluded := ""
		for q := range notBound {
			if p == q || strings.HasPrefix(p, q+".") {
				excluded = q
			}
		}
		t.Run(p, func(t *testing.T) {
			var ok bool
			changed := withField(t, p, func(v reflect.Value) { ok = nonZero(v) })
			if !ok {
				if excluded == "" {
					t.Fatalf("%s (%s) cannot be set here; bind it or list it in notBound", p, paths[p])
				}
				return
			}
			if excluded != "" {
				if !bytes.Equal(mustBind(t, withField(t, p, nil)), mustBind(t, changed)) {
					t.Errorf("%s is listed as not bound (%q) but changes the binding", p, notBound[excluded])
				}
				return
			}
			zero, err := configBinding(withField(t, p, nil))
			if err != nil {
				t.Fatal(err)
			}
			set, err := configBinding(changed)
			if err != nil {
				t.Fatalf("%s: %v (bind it or list it in notBound)", p, err)
			}
			if bytes.Equal(zero, set) {
				t.Errorf("changing %s (%s) leaves the token binding as it was: a paused run would resume under another configuration; bind it or list it in notBound with the reason", p, paths[p])
			}
		})
	}
	for q := range notBound {
		if _, ok := paths[q]; !ok {
			t.Errorf("notBound lists %s, which is not a field", q)
		}
	}
}

// The binding does not depend on the order tools are listed in (a server
// may list them in another order after a restart), and a tool is bound by
// its whole description, not its place.
func TestBindingToolsAreASet(t *testing.T) {
	a := Tool{Namespace: "s", Name: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}
	b := Tool{Namespace: "s", Name: "b", Policy: PolicyAsk}
	ab := mustBind(t, EngineConfig{Tools: []Tool{a, b}})
	ba := mustBind(t, EngineConfig{Tools: []Tool{b, a}})
	if !bytes.Equal(ab, ba) {
		t.Error("the binding depends on the tools' order")
	}
	b.Policy = PolicyDeny
	if bytes.Equal(ab, mustBind(t, EngineConfig{Tools: []Tool{a, b}})) {
		t.Error("a tool's policy is not bound")
	}
}
