// expect: ok ["TOOL_ERROR", 3]
// A tool that panics is a rejected call, not a host crash.
let code;
try { await tools.boom() } catch (e) { code = e.code }
return [code, await tools.add({ a: 1, b: 2 })];
