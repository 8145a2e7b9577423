package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer renders library messages for kinds without a message of our own.
var printer = message.NewPrinter(language.English)

const (
	// maxListed caps how many names or values a message lists.
	maxListed = 12
	// maxValue caps the rendered length of one JSON value in a message.
	maxValue = 60
)

// describe returns the failed keyword and a short message for one error.
func describe(e *jsonschema.ValidationError, v *Validator) (rule, msg string) {
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return "type", "got " + k.Got + ", want " + strings.Join(k.Want, " or ")
	case *kind.Required:
		return "required", plural(len(k.Missing), "missing property ", "missing properties ") + quoteList(k.Missing)
	case *kind.Enum:
		return "enum", "got " + jsonText(k.Got) + ", want " + oneOf(k.Want)
	case *kind.Const:
		return "const", "got " + jsonText(k.Got) + ", want " + jsonText(k.Want)
	case *kind.AdditionalProperties:
		msg = plural(len(k.Properties), "unexpected property ", "unexpected properties ") + quoteList(k.Properties)
		if allowed := v.allowedProperties(e.SchemaURL); allowed != nil {
			if len(allowed) == 0 {
				msg += " (no properties allowed)"
			} else {
				msg += " (allowed: " + quoteList(allowed) + ")"
			}
		}
		return "additionalProperties", msg
	case *kind.Minimum:
		return "minimum", "got " + ratText(k.Got) + ", want >= " + ratText(k.Want)
	case *kind.Maximum:
		return "maximum", "got " + ratText(k.Got) + ", want <= " + ratText(k.Want)
	case *kind.ExclusiveMinimum:
		return "exclusiveMinimum", "got " + ratText(k.Got) + ", want > " + ratText(k.Want)
	case *kind.ExclusiveMaximum:
		return "exclusiveMaximum", "got " + ratText(k.Got) + ", want < " + ratText(k.Want)
	case *kind.MultipleOf:
		return "multipleOf", "got " + ratText(k.Got) + ", want a multiple of " + ratText(k.Want)
	case *kind.MinLength:
		return "minLength", fmt.Sprintf("got %d characters, want at least %d", k.Got, k.Want)
	case *kind.MaxLength:
		return "maxLength", fmt.Sprintf("got %d characters, want at most %d", k.Got, k.Want)
	case *kind.MinItems:
		return "minItems", fmt.Sprintf("got %d items, want at least %d", k.Got, k.Want)
	case *kind.MaxItems:
		return "maxItems", fmt.Sprintf("got %d items, want at most %d", k.Got, k.Want)
	case *kind.MinProperties:
		return "minProperties", fmt.Sprintf("got %d properties, want at least %d", k.Got, k.Want)
	case *kind.MaxProperties:
		return "maxProperties", fmt.Sprintf("got %d properties, want at most %d", k.Got, k.Want)
	case *kind.Pattern:
		return "pattern", jsonText(k.Got) + " does not match " + jsonText(k.Want)
	case *kind.Format:
		return "format", jsonText(k.Got) + " is not a valid " + k.Want
	case *kind.UniqueItems:
		return "uniqueItems", fmt.Sprintf("items %d and %d are equal", k.Duplicates[0], k.Duplicates[1])
	case *kind.FalseSchema:
		return "false", "no value is allowed here"
	case *kind.Not:
		return "not", "value must not match the schema under \"not\""
	case *kind.AnyOf:
		return "anyOf", "matches none of the alternatives"
	case *kind.OneOf:
		if len(k.Subschemas) == 2 {
			return "oneOf", fmt.Sprintf("matches alternatives %d and %d, want exactly one", k.Subschemas[0], k.Subschemas[1])
		}
		return "oneOf", "matches none of the alternatives"
	case *kind.Dependency:
		return "dependencies", quoteList(k.Missing) + " required when " + strconv.Quote(k.Prop) + " is present"
	case *kind.DependentRequired:
		return "dependentRequired", quoteList(k.Missing) + " required when " + strconv.Quote(k.Prop) + " is present"
	case *kind.PropertyNames:
		return "propertyNames", "invalid property name " + strconv.Quote(k.Property)
	case *kind.InvalidJsonValue:
		return "type", fmt.Sprintf("a Go %T is not a JSON value", k.Value)
	}
	rule = "schema"
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		rule = kp[0]
	}
	msg = e.ErrorKind.LocalizedString(printer)
	return rule, strings.TrimPrefix(msg, rule+": ")
}

// ruleOf is the rule describe gives e, without building its message.
func ruleOf(e *jsonschema.ValidationError) string {
	switch e.ErrorKind.(type) {
	case *kind.Type, *kind.InvalidJsonValue:
		return "type"
	case *kind.Required:
		return "required"
	case *kind.Enum:
		return "enum"
	case *kind.Const:
		return "const"
	case *kind.AdditionalProperties:
		return "additionalProperties"
	case *kind.Minimum:
		return "minimum"
	case *kind.Maximum:
		return "maximum"
	case *kind.ExclusiveMinimum:
		return "exclusiveMinimum"
	case *kind.ExclusiveMaximum:
		return "exclusiveMaximum"
	case *kind.MultipleOf:
		return "multipleOf"
	case *kind.MinLength:
		return "minLength"
	case *kind.MaxLength:
		return "maxLength"
	case *kind.MinItems:
		return "minItems"
	case *kind.MaxItems:
		return "maxItems"
	case *kind.MinProperties:
		return "minProperties"
	case *kind.MaxProperties:
		return "maxProperties"
	case *kind.Pattern:
		return "pattern"
	case *kind.Format:
		return "format"
	case *kind.UniqueItems:
		return "uniqueItems"
	case *kind.FalseSchema:
		return "false"
	case *kind.Not:
		return "not"
	case *kind.AnyOf:
		return "anyOf"
	case *kind.OneOf:
		return "oneOf"
	case *kind.Dependency:
		return "dependencies"
	case *kind.DependentRequired:
		return "dependentRequired"
	case *kind.PropertyNames:
		return "propertyNames"
	}
	if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		return kp[0]
	}
	return "schema"
}

// plural picks one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quoteList renders names as a comma-separated list of quoted strings.
func quoteList(names []string) string {
	parts := make([]string, 0, min(len(names), maxListed)+1)
	for i, n := range names {
		if i == maxListed {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, strconv.Quote(n))
	}
	return strings.Join(parts, ", ")
}

// oneOf renders the allowed values of an enum.
func oneOf(want []any) string {
	if len(want) == 1 {
		return jsonText(want[0])
	}
	parts := make([]string, 0, min(len(want), maxListed)+1)
	for i, w := range want {
		if i == maxListed {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, jsonText(w))
	}
	return "one of " + strings.Join(parts, ", ")
}

// jsonText renders a JSON value compactly, shortened if long.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return truncate(string(b), maxValue)
}

// ratText renders a number exactly when it is an integer, else as a float.
func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}
