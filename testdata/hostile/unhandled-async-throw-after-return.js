// expect: ok "first"
// A task that throws after the program returned does not change the result.
(async () => { await tools.slow({}); throw new Error("too late") })();
setTimeout(() => { throw new Error("timer too late") }, 5);
return "first";
