// expect: error UNCAUGHT_EXCEPTION
// A thrown revoked Proxy: the error is still reported (UNCAUGHT_EXCEPTION), never NEVER_SETTLED.
const { proxy, revoke } = Proxy.revocable(new Error("x"), {});
revoke();
throw proxy;
