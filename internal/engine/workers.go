package engine

import (
	"context"
	"time"
)

// Tool calls run on a pool of goroutines that outlive single calls, so a
// call does not pay for a new goroutine and its stack growth. A call that
// finds no idle worker starts a new one, so the pool never limits
// concurrency; idle workers exit after workerIdle. (A call the guest
// waits for with nothing else in flight runs on the driver instead: see
// startCall and callInline.)

const workerIdle = 2 * time.Second

type callJob struct {
	r        *run
	ctx      context.Context
	host     Host
	pc       *pendingCall
	maxValue int
}

var idleWorkers = make(chan callJob)

func dispatch(j callJob) {
	select {
	case idleWorkers <- j:
	default:
		go worker(j)
	}
}

func worker(j callJob) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		j.r.deliver(callHost(j.ctx, j.r, j.host, j.pc, j.maxValue))
		j = callJob{}
		if !idle.Stop() {
			select {
			case <-idle.C:
			default:
			}
		}
		idle.Reset(workerIdle)
		select {
		case j = <-idleWorkers:
		case <-idle.C:
			return
		}
	}
}
