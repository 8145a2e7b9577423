// expect: ok true
// Stack traces do not lead anywhere: the frames of the bridge, if shown,
// are text, and Error.captureStackTrace is a no-op.
const e = new Error("x");
Error.captureStackTrace(e);
const stack = String(e.stack);
return typeof stack === "string" && !/__modebox_send/.test(stack);
