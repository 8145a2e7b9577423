// expect: ok "NOPE"
// known-bug: settle reads info.details through the prototype chain, so a getter on Object.prototype runs inside the bridge; if it throws, settle throws and the run fails with UNCAUGHT_EXCEPTION instead of the program catching the tool error
// A getter named "details" on Object.prototype: settle reads info.details of
// a tool error; the program's getter must not break the rejection.
Object.defineProperty(Object.prototype, "details", { get() { throw new Error("details getter") }, configurable: true });
try {
  await tools.fail({});
  return "no error";
} catch (e) {
  return e.code;
}
