// expect: error UNCAUGHT_EXCEPTION ~ __modebox_send
// eval and Function cannot name the deleted send function either.
const g = new Function("return this")();
if (g !== globalThis) throw new Error("another global");
return eval("__modebox_send")(1, 1, "x\n{}");
