// expect: ok ["ToolError", "NOPE", "nope", true]
// known-bug: the ToolError constructor assigns code and tool (this.code = code), so a setter on Error.prototype runs inside settle; if it throws the run fails with UNCAUGHT_EXCEPTION instead of the program catching the tool error
// Error.prototype pollution (setters for name, message, code, tool, stack)
// must not change how a tool's rejection is built.
for (const k of ["name", "message", "code", "tool", "stack", "details", "cause"]) {
  Object.defineProperty(Error.prototype, k, { set() { throw new Error("set " + k) }, get() { return "polluted " + k }, configurable: true });
}
try {
  await tools.fail();
} catch (e) {
  return [e.name, e.code, e.message, e instanceof ToolError];
}
