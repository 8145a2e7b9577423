// expect: ok 1
// Rejected promises nobody awaits do not fail the run: only the program's
// result (or its uncaught throw) decides the outcome.
Promise.reject(new Error("ignored"));
Promise.reject(42);
new Promise((_, reject) => reject(Symbol("s")));
return 1;
