// expect: ok [3, "untouched"]
// Setters for the call ids on Object.prototype: the table of pending calls
// has no prototype, so a program cannot observe or replace a pending call.
let leaked = "untouched";
for (let i = 0; i < 10; i++) {
  Object.defineProperty(Object.prototype, String(i), { set(v) { leaked = v }, get() { leaked = "read"; return { resolve() {}, reject() {} } }, configurable: true });
}
const v = await tools.add({ a: 1, b: 2 });
return [v, leaked];
