// expect: error UNCAUGHT_EXCEPTION
// known-bug: format() throws on this value (instanceof runs the getPrototypeOf trap, outside readable()), and fail() runs in a promise reaction, so the exception is swallowed and no error event is sent: the run ends NEVER_SETTLED instead of UNCAUGHT_EXCEPTION ("could not be formatted")
const { proxy, revoke } = Proxy.revocable(new Error("x"), {});
revoke();
throw proxy;
