package engine

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
)

// Journal records everything non-deterministic a run saw: the seed, every
// clock reading, and every host-call result in the order it settled.
// Running the same code again with its journal gives the same result and
// calls no host function for the recorded calls.
type Journal struct {
	// Seed is the run's Math.random seed.
	Seed uint64 `json:"seed"`
	// Clock holds every clock reading, in milliseconds since the epoch.
	Clock []float64 `json:"clock,omitempty"`
	// Calls holds host-call results in settle order.
	Calls []JournalCall `json:"calls,omitempty"`
}

// JournalCall is one settled host call.
type JournalCall struct {
	// ID is the guest's call number (1, 2, ...), deterministic for a program.
	ID int `json:"id"`
	// Tool is the called tool's key.
	Tool string `json:"tool"`
	// Args is a digest of the call's arguments, to detect a diverging replay.
	Args string `json:"args"`
	// OK is true when the call resolved, false when it rejected.
	OK bool `json:"ok"`
	// Value is the JSON the guest received: the value, or the error.
	Value json.RawMessage `json:"value"`
}

// Clone returns a deep copy of j.
func (j *Journal) Clone() *Journal {
	if j == nil {
		return nil
	}
	c := &Journal{Seed: j.Seed}
	c.Clock = append([]float64(nil), j.Clock...)
	c.Calls = make([]JournalCall, len(j.Calls))
	n := 0
	for _, call := range j.Calls {
		n += len(call.Value)
	}
	buf := make([]byte, 0, n) // every value in one allocation
	for i, call := range j.Calls {
		if len(call.Value) > 0 {
			start := len(buf)
			buf = append(buf, call.Value...)
			call.Value = buf[start:len(buf):len(buf)] // an append to one cannot reach the next
		} else {
			call.Value = nil
		}
		c.Calls[i] = call
	}
	return c
}

// argsDigest is a short digest of a call's arguments: the first 12 bytes
// of their SHA-256, in unpadded base64url (16 characters).
func argsDigest(args []byte) string {
	sum := sha256.Sum256(args)
	var text [16]byte
	base64.RawURLEncoding.Encode(text[:], sum[:12])
	return string(text[:]) // one allocation (EncodeToString makes two)
}
