package engine

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"

	"github.com/modebox/modebox/internal/seal"
)

// Journal records everything non-deterministic a run saw: the seed, every
// clock reading, and every host-call result in the order it settled.
// Running the same code again with its journal gives the same result and
// calls no host function for the recorded calls. A run whose call values
// (results and errors) add up to more than MaxJournalValues bytes keeps no
// journal.
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

// MaxJournalValues is the most bytes of call values (JournalCall.Value) a
// run's journal keeps: a token's body, which holds the journal of a
// paused run, cannot be larger (seal.MaxBodySize), and a run's Result
// would otherwise keep every result it ever received. Past it the run
// goes on, but its journal drops the values it kept and keeps no more:
// its Result has no Journal (Result.JournalTooLarge), and it cannot
// pause into a token.
const MaxJournalValues = seal.MaxBodySize

// record journals a settled call, while the journal's values stay within
// MaxJournalValues.
func (r *run) record(c completion) {
	if r.journalTooLarge {
		return
	}
	if r.journalBytes += len(c.value); r.journalBytes > MaxJournalValues {
		r.journalTooLarge = true
		r.journal.Calls, r.journal.Clock = nil, nil // free what it kept: it is no use now
		return
	}
	r.journal.Calls = append(r.journal.Calls, JournalCall{
		ID: c.call.id, Tool: c.call.tool, Args: c.call.digest, OK: c.ok, Value: c.value,
	})
}
