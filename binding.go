package modebox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/modebox/modebox/internal/seal"
	"github.com/modebox/modebox/internal/toolbox"
)

// notBound lists the configuration fields a continuation token is not
// bound to, each with the reason. Every other field of EngineConfig, and
// of every type it holds, is bound: configBinding walks them all, so a
// field added later is bound unless it is listed here (or cannot be
// encoded, which New reports and TestBindingCoversEveryField catches).
var notBound = map[string]string{
	"Tools.Description": "model-facing text; a replay does not depend on it",
	"Tools.Handler":     "code, not configuration; the tool's name, schemas, policy and flow marks are bound",
	"Limits":            "the token carries the run's limits, which Resume clamps to the engine's",
	"MaxRuns":           "the engine-wide run limit, not the run's",
	"MaxQueued":         "the engine-wide run limit, not the run's",
	"QueueTimeout":      "the engine-wide run limit, not the run's",
	"ApprovalTimeout":   "how long an approver may take, not what the run does",
	"Continuations":     "the keys authenticate the token themselves; the store records used tokens",
	"Image":             "the image's hash is bound as seal.Binding.Engine",
	"Fetch.Resolver":    "how names are resolved, not what may be reached (every address is still checked)",
	"Fetch.RootCAs":     "which servers are trusted for TLS, not what may be reached",
	"Fetch.Getenv":      "where header values come from; the header names are bound",
	"Shell.Bwrap":       "where bubblewrap is installed, not what the sandbox allows",
	"Shell.Bridge":      "where the network bridge program is, not what the network allows",
	"FS.Fallback":       "which of two equivalent path resolvers runs",
}

// binding is what continuation tokens of an engine are bound to: the
// engine image, and everything in the configuration that a paused run's
// replay depends on (the tools' names, schemas, policies and flow marks,
// the built-ins' configuration and code). A token resumes only on an
// engine for which this is the same. It is the one place the binding is
// computed.
func binding(cfg EngineConfig, box *toolbox.Box) (seal.Binding, error) {
	c, err := configBinding(cfg)
	if err != nil {
		return seal.Binding{}, err
	}
	h := sha256.New()
	h.Write(c)
	// the built-ins' own descriptions of their calls (code that can change
	// between releases of the same image)
	for _, b := range box.Builtins() {
		raw, _ := json.Marshal([]any{b.Key, string(b.InputSchema), b.Policy, b.Source, b.Sink})
		h.Write(raw)
		h.Write([]byte{0})
	}
	return seal.Binding{Engine: ImageHash(), Tools: hex.EncodeToString(h.Sum(nil))}, nil
}

// configBinding encodes the bound part of cfg canonically: every field
// not in notBound, by name, maps by sorted key, Tools as a set.
func configBinding(cfg EngineConfig) ([]byte, error) {
	v, err := bindValue("", reflect.ValueOf(cfg))
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// bindValue turns v, found at path (fields joined by "."), into plain JSON
// values.
func bindValue(path string, v reflect.Value) (any, error) {
	if _, skip := notBound[path]; skip {
		return nil, nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		x, err := bindValue(path, v.Elem())
		return []any{x}, err // distinct from nil even when *v is zero
	case reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			p := join(path, f.Name)
			if !f.IsExported() {
				if _, skip := notBound[p]; skip {
					continue
				}
				return nil, fmt.Errorf("modebox: %s is unexported and not listed as not bound", p)
			}
			x, err := bindValue(p, v.Field(i))
			if err != nil {
				return nil, err
			}
			out[f.Name] = x
		}
		return out, nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return string(v.Bytes()), nil // json.RawMessage and []byte, byte for byte
		}
		out := make([]any, v.Len())
		for i := range v.Len() {
			x, err := bindValue(path, v.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		if path == "Tools" {
			// a set: a server listing its tools in another order is the
			// same toolbox
			enc := make([]string, len(out))
			for i, x := range out {
				b, _ := json.Marshal(x)
				enc[i] = string(b)
			}
			slices.Sort(enc)
			return enc, nil
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		out := map[string]any{}
		iter := v.MapRange()
		for iter.Next() {
			k := fmt.Sprint(iter.Key().Interface())
			x, err := bindValue(path, iter.Value())
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	case reflect.String:
		return v.String(), nil
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint(), nil
	case reflect.Float32, reflect.Float64:
		return v.Float(), nil
	}
	return nil, fmt.Errorf("modebox: %s (a %s) cannot be bound to continuation tokens and is not listed as not bound", path, v.Type())
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
