package pgstore_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modebox/modebox/pgstore"
)

// BenchmarkClaim compares one claim on the directory store (a file
// created exclusively and synced) with one on PostgreSQL over loopback
// (one INSERT, committed with fsync on), side by side in one run: serial
// claims report the median latency (p50-ms); parallel ones (8 at a time)
// the throughput (claims/s) and, for PostgreSQL, the server's processor
// time per claim.
func BenchmarkClaim(b *testing.B) {
	c := pgtest.Start(b)
	pg, err := pgstore.Open(context.Background(), c.NewDatabase(), pgstore.Options{GCInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer pg.Close()
	stores := []struct {
		name  string
		store modebox.TokenStore
	}{
		{"dir", modebox.DirTokenStore(b.TempDir())},
		{"postgres", pg},
	}
	var seq atomic.Uint64
	nextID := func() string { return fmt.Sprintf("%016x%016x", uint64(time.Now().UnixNano()), seq.Add(1)) }
	exp := time.Now().Add(time.Hour)
	for _, s := range stores {
		b.Run(s.name+"/serial", func(b *testing.B) {
			lats := make([]time.Duration, 0, b.N)
			for b.Loop() {
				t0 := time.Now()
				if err := s.store.Claim(nextID(), exp); err != nil {
					b.Fatal(err)
				}
				lats = append(lats, time.Since(t0))
			}
			slices.Sort(lats)
			b.ReportMetric(float64(lats[len(lats)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lats[len(lats)*9/10].Microseconds())/1000, "p90-ms")
		})
		b.Run(s.name+"/parallel8", func(b *testing.B) {
			b.SetParallelism(4) // 4 per core: 8 on two cores
			cpu0 := c.CPU()
			start := time.Now()
			b.RunParallel(func(p *testing.PB) {
				for p.Next() {
					if err := s.store.Claim(nextID(), exp); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "claims/s")
			if s.name == "postgres" {
				b.ReportMetric(float64((c.CPU()-cpu0).Microseconds())/1000/float64(b.N), "pg-cpu-ms/claim")
			}
		})
	}
}
