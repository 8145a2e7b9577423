// expect: ok "done"
// log: before
// The console replaced after one line; logging must keep going or fail
// only in the program, never in the host.
console.log("before");
(globalThis as any).console = { log() { throw new Error("log") } };
try { console.log("after") } catch (_) {}
return "done";
