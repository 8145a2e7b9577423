package engine

import (
	"context"
	"time"
)

// Tool calls and runs' drivers run on pools of goroutines that outlive
// single calls and runs, so a call or a run does not pay for a new
// goroutine and the growth of its stack (a driver's stack grows to tens
// of KiB through wazero's calls; growing it, copying frame by frame, cost
// a run of `return 1` ~9% of its processor time). A job that finds no
// idle goroutine starts a new one, so a pool never limits concurrency;
// idle goroutines exit after workerIdle. (A call the guest waits for with
// nothing else in flight runs on the driver instead: see startCall and
// callInline.)

const workerIdle = 2 * time.Second

// goPool is a pool of goroutines that run jobs of type T with do.
type goPool[T any] struct {
	idle chan T
	do   func(T)
}

func newGoPool[T any](do func(T)) *goPool[T] {
	return &goPool[T]{idle: make(chan T), do: do}
}

// run runs j on an idle goroutine of the pool, or on a new one.
func (p *goPool[T]) run(j T) {
	select {
	case p.idle <- j:
	default:
		go p.loop(j)
	}
}

func (p *goPool[T]) loop(j T) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	var zero T
	for {
		p.do(j)
		j = zero // let the job's values go while idle
		if !idle.Stop() {
			select {
			case <-idle.C:
			default:
			}
		}
		idle.Reset(workerIdle)
		select {
		case j = <-p.idle:
		case <-idle.C:
			return
		}
	}
}

type callJob struct {
	r        *run
	ctx      context.Context
	host     Host
	pc       *pendingCall
	maxValue int
}

// callWorkers run tool calls.
var callWorkers = newGoPool(func(j callJob) {
	delivered := false
	defer func() {
		if !delivered { // the handler ended the goroutine (runtime.Goexit)
			j.r.deliver(goexitCompletion(j.pc))
		}
	}()
	j.r.deliver(callHost(j.ctx, j.r, j.host, j.pc, j.maxValue))
	delivered = true
})

// drivers run runs' drivers (Run).
var drivers = newGoPool(func(f func()) { f() })
