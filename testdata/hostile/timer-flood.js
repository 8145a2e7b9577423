// expect: error TIMER_LIMIT
// limits: memory=256MiB
// Sets far-off timers without end, with room in the heap for all of them:
// the timers a run sets are capped (limits.maxTimers), each pending one
// costing the host a heap entry, not a goroutine.
for (let i = 0; ; i++) setTimeout(() => {}, 1e9);
