// expect: error NEVER_SETTLED
// A "then" on Object.prototype turns every object into a thenable: the
// program's own async result {a: 1} is then resolved through it, and since
// it never calls back, nothing is left to settle the run. The host must see
// that and end the run, not hang.
Object.defineProperty(Object.prototype, "then", { get() { return function () {} }, configurable: true });
return { a: 1 };
