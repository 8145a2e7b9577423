package schema

import (
	"strconv"
	"strings"
	"testing"
)

const uniqueSchema = `{"type":"object","properties":{"items":{"type":"array","uniqueItems":true,"items":{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]+$"},"b":{"type":"integer","minimum":0}},"required":["a","b"],"additionalProperties":false}}},"required":["items"]}`

func badArgs(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"a":1,"b":"x"}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func goodArgs(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"a":"x","b":` + strconv.Itoa(i) + `}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkAttackInvalid(b *testing.B) {
	v := mustCompile(b, uniqueSchema)
	data := badArgs(190000)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateJSON(data); err == nil {
			b.Fatal("accepted")
		}
	}
}

func BenchmarkAttackValid(b *testing.B) {
	v := mustCompile(b, uniqueSchema)
	data := goodArgs(190000)
	b.Logf("%d bytes", len(data))
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
