// expect: error CLOCK_LIMIT
// Reads the clock with no other work: every reading is journaled, so the
// readings are capped (limits.maxClockReads) rather than kept until the
// timeout.
let n = 0;
for (;;) { Date.now(); Date.now(); Date.now(); Date.now(); n++; }
