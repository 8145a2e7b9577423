// expect: ok ["VALUE_TOO_LARGE", 3]
// An argument over the cap rejects that call only.
let code;
try { await tools.echo({ s: "x".repeat(2 << 20) }) } catch (e) { code = e.code }
return [code, await tools.add({ a: 1, b: 2 })];
