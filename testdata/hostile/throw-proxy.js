// expect: error UNCAUGHT_EXCEPTION
// known-bug: format() throws on this value (instanceof runs the getPrototypeOf trap, outside readable()), and fail() runs in a promise reaction, so the exception is swallowed and no error event is sent: the run ends NEVER_SETTLED instead of UNCAUGHT_EXCEPTION ("could not be formatted")
// A Proxy whose every trap throws, thrown as the error.
const h = {};
for (const t of ["get", "has", "ownKeys", "getPrototypeOf", "getOwnPropertyDescriptor", "apply"]) h[t] = () => { throw new Error(t) };
throw new Proxy({}, h);
