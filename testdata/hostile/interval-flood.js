// expect: error TIMER_LIMIT
// Intervals of 0 ms that repeat for ever: each repeat sets a timer, which
// the journal keeps when it fires, so the repeats are capped too
// (limits.maxTimers).
for (let i = 0; i < 64; i++) setInterval(() => {}, 0);
await new Promise(() => {});
