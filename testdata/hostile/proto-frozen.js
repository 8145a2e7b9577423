// expect: ok [3, "NOPE"]
// Everything the bridge might touch frozen: prototypes of Object, Array,
// Function, Promise, Error and the tools object itself.
for (const o of [Object.prototype, Array.prototype, Function.prototype, Promise.prototype, Error.prototype, String.prototype, tools, globalThis]) Object.freeze(o);
const v = await tools.add({ a: 1, b: 2 });
let code;
try { await tools.fail(); } catch (e) { code = e.code; }
return [v, code];
