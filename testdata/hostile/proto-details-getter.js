// expect: ok "NOPE"
// A throwing getter on Object.prototype named like a field of the host's error: the bridge reads only the host's own fields, so the program still catches the tool error.
// A getter named "details" on Object.prototype: settle reads info.details of
// a tool error; the program's getter must not break the rejection.
Object.defineProperty(Object.prototype, "details", { get() { throw new Error("details getter") }, configurable: true });
try {
  await tools.fail({});
  return "no error";
} catch (e) {
  return e.code;
}
