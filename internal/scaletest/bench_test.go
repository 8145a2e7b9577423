package scaletest

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modebox/modebox/internal/pgtest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHAProxyRuns measures runs/s through HAProxy in front of 1, 2
// and 3 `modebox mcp --http` replicas sharing one PostgreSQL, with 2026-07-28
// clients (8 sessions, 16 runs in flight): "plain" runs (return 1+1, no
// store access) and "approval" runs (a fetch that asks: the run pauses,
// the client answers, the resume claims its token and records its result
// in PostgreSQL, and the fetch reaches a local server).
//
// Besides runs/s and the median latency it reports where the processor
// time went, per run: the replicas (replica-cpu-ms), PostgreSQL (pg-cpu-ms),
// HAProxy (lb-cpu-ms) and this process, the clients and the fetch target
// (client-cpu-ms); and busy-%, all of that over the elapsed time of the
// machine's cores. Everything shares the same cores, so a busy-% near 100
// with pg-cpu-ms small says the runs are bound by the processor, not by
// the store. machine-busy-% is the share of the cores busy with anything
// (from /proc/stat), other users of the machine included.
func BenchmarkHAProxyRuns(b *testing.B) {
	d := newDeployment(b)
	var reps []*replica
	for range 3 {
		reps = append(reps, d.start())
	}
	var seq atomic.Int64
	for _, kind := range []string{"plain", "approval"} {
		for n := 1; n <= 3; n++ {
			b.Run(fmt.Sprintf("%s/replicas=%d", kind, n), func(b *testing.B) {
				var addrs []string
				for _, r := range reps[:n] {
					addrs = append(addrs, r.Addr)
				}
				lb := startLB(b, addrs)
				var sessions []*mcp.ClientSession
				for range 8 {
					sessions = append(sessions, client(b, lb.Addr, newVersion, "approve", true))
				}
				one := func(ctx context.Context, cs *mcp.ClientSession) error {
					if kind == "plain" {
						res, err := callRun(ctx, cs, "return 1+1")
						if got := resultString(res, err); got != "result 2" {
							return fmt.Errorf("plain run: %s", got)
						}
						return nil
					}
					id := "b" + strconv.FormatInt(seq.Add(1), 10)
					res, err := callRun(ctx, cs, d.cnt.program("hit", id))
					if got := resultString(res, err); got != "hit:"+id {
						return fmt.Errorf("approval run: %s", got)
					}
					return nil
				}
				ctx := context.Background()
				for _, cs := range sessions { // warm up every replica
					if err := one(ctx, cs); err != nil {
						b.Fatal(err)
					}
				}
				cpu0 := cpuNow(d, reps, lb)
				mach0 := machineCPU()
				var (
					mu   sync.Mutex
					lats []time.Duration
					next atomic.Int64
				)
				b.SetParallelism(8) // 16 in flight on two cores
				b.ResetTimer()
				start := time.Now()
				b.RunParallel(func(pb *testing.PB) {
					cs := sessions[int(next.Add(1))%len(sessions)]
					var mine []time.Duration
					for pb.Next() {
						t0 := time.Now()
						if err := one(ctx, cs); err != nil {
							b.Error(err)
							return
						}
						mine = append(mine, time.Since(t0))
					}
					mu.Lock()
					lats = append(lats, mine...)
					mu.Unlock()
				})
				elapsed := time.Since(start)
				b.StopTimer()
				cpu1 := cpuNow(d, reps, lb)
				mach1 := machineCPU()
				if len(lats) == 0 {
					return
				}
				slices.Sort(lats)
				runs := float64(len(lats))
				perRun := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / runs }
				b.ReportMetric(runs/elapsed.Seconds(), "runs/s")
				b.ReportMetric(float64(lats[len(lats)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(perRun(cpu1.replicas-cpu0.replicas), "replica-cpu-ms")
				b.ReportMetric(perRun(cpu1.pg-cpu0.pg), "pg-cpu-ms")
				b.ReportMetric(perRun(cpu1.lb-cpu0.lb), "lb-cpu-ms")
				b.ReportMetric(perRun(cpu1.self-cpu0.self), "client-cpu-ms")
				busy := cpu1.total() - cpu0.total()
				b.ReportMetric(100*busy.Seconds()/(elapsed.Seconds()*float64(numCPU())), "busy-%")
				if all := mach1.total - mach0.total; all > 0 {
					b.ReportMetric(100*float64(mach1.busy-mach0.busy)/float64(all), "machine-busy-%")
				}
			})
		}
	}
}

type cpuSample struct{ replicas, pg, lb, self time.Duration }

func (c cpuSample) total() time.Duration { return c.replicas + c.pg + c.lb + c.self }

func cpuNow(d *deployment, reps []*replica, lb *pgtest.HAProxy) cpuSample {
	var s cpuSample
	for _, r := range reps {
		s.replicas += pgtest.ProcessCPU(r.cmd.Process.Pid, true)
	}
	s.pg = d.pg.CPU()
	s.lb = lb.CPU()
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	s.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return s
}

func numCPU() int { return runtime.NumCPU() }

// machineTicks are /proc/stat's totals for all cores.
type machineTicks struct{ busy, total int64 }

func machineCPU() machineTicks {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineTicks{}
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var m machineTicks
	for i, v := range f[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		if i >= 8 { // guest times are counted in user already
			break
		}
		m.total += n
		if i != 3 && i != 4 { // idle, iowait
			m.busy += n
		}
	}
	return m
}
