// expect: error HOST_CALL_LIMIT
// limits: maxCalls=20
// Calls made from getters count like any other.
const arg = { get x() { for (let i = 0; i < 50; i++) tools.count(); return 1 } };
await tools.echo(arg);
