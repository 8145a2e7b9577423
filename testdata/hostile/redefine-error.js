// expect: error NOPE ~ nope
// Error and its subclasses replaced before a tool fails: the rejection is
// still the bridge's ToolError with its code, and uncaught it is the run's
// code.
globalThis.Error = function () { throw "no errors" };
globalThis.TypeError = null;
globalThis.ToolError = null;
await tools.fail();
