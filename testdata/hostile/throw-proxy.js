// expect: error UNCAUGHT_EXCEPTION
// A thrown Proxy whose traps throw: the error is still reported (UNCAUGHT_EXCEPTION), never NEVER_SETTLED.
// A Proxy whose every trap throws, thrown as the error.
const h = {};
for (const t of ["get", "has", "ownKeys", "getPrototypeOf", "getOwnPropertyDescriptor", "apply"]) h[t] = () => { throw new Error(t) };
throw new Proxy({}, h);
