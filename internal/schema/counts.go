package schema

import (
	"encoding/json"
	"math/big"
)

// countKeywords take a non-negative integer that the library reads into
// an int through an int64, which wraps above 2^63: {"maxLength": 1e300}
// refused every string but "", and {"minItems": 2^64} accepted any array.
var countKeywords = map[string]bool{
	"maxLength": true, "minLength": true, "maxItems": true, "minItems": true,
	"maxProperties": true, "minProperties": true, "maxContains": true, "minContains": true,
}

// maxCount is what clampCounts lowers a larger count to: 2^53-1, beyond
// any string, array or object a value can hold, so the check means the
// same (a maximum that nothing reaches, a minimum that nothing meets).
var maxCount = new(big.Rat).SetInt64(1<<53 - 1)

// clampCounts lowers, in place, every count keyword of doc's schemas (the
// subschemas countSchemas walks) whose value is an integer above maxCount.
// Values that are not non-negative integers are left for the library's
// meta-schema check to refuse.
func clampCounts(doc any) {
	var walk func(s any)
	walk = func(s any) {
		m, ok := s.(map[string]any)
		if !ok {
			return
		}
		for k, v := range m {
			switch {
			case countKeywords[k]:
				if n, ok := v.(json.Number); ok {
					if r, ok := new(big.Rat).SetString(string(n)); ok && r.IsInt() && r.Cmp(maxCount) > 0 {
						m[k] = json.Number(maxCount.FloatString(0))
					}
				}
			case mapSchemaKeywords[k]:
				if sub, ok := v.(map[string]any); ok {
					for _, x := range sub {
						walk(x)
					}
				}
			case listSchemaKeywords[k]:
				if l, ok := v.([]any); ok {
					for _, x := range l {
						walk(x)
					}
				} else if oneSchemaKeywords[k] {
					walk(v)
				}
			case oneSchemaKeywords[k]:
				walk(v)
			}
		}
	}
	walk(doc)
}
