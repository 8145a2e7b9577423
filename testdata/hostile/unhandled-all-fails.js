// expect: error NOPE ~ nope
// Promise.all rejects with the failing call while a slow one is still in
// flight: the run fails with the tool's code, and the slow call ends with it.
await Promise.all([tools.slow({}), tools.fail(), tools.slow({})]);
