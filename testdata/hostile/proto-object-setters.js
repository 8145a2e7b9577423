// expect: ok 3
// Setters and getters on Object.prototype named like the fields of the
// bridge's internal records (pending calls, settle's error info, format's
// report): the bridge must not run them or be changed by them.
for (const k of ["resolve", "reject", "tool", "id", "ok", "text", "payload", "args", "setup", "tools", "globals", "path", "key", "alias"]) {
  Object.defineProperty(Object.prototype, k, { set() { throw new Error("setter " + k) }, get() { throw new Error("getter " + k) }, configurable: true });
}
return await tools.add({ a: 1, b: 2 });
