// expect: ok ["ToolError", "NOPE", "nope", true]
// Setters on Error.prototype named code and tool: the bridge defines those fields instead of assigning them, so the program still catches the tool error.
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
