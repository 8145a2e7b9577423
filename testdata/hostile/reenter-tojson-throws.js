// expect: ok ["caught", "toJSON threw", 3]
// toJSON calls a tool, then throws: the outer call rejects with the
// program's error, the inner call still completes.
let inner;
let msg;
try {
  await tools.echo({ toJSON() { inner = tools.add({ a: 1, b: 2 }); throw new Error("toJSON threw") } });
} catch (e) { msg = e.message }
return ["caught", msg, await inner];
