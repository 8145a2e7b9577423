// expect: ok ["hijacked", "hijacked"]
// A "then" on Object.prototype that resolves: a tool's result object and
// the program's own result go through the program's then. That is the
// program deceiving itself; the host only sees what the program returns.
let n = 0;
Object.prototype.then = function (resolve) { n++; delete Object.prototype.then; resolve("hijacked"); };
const v = await tools.echo({ x: 1 });
Object.prototype.then = function (resolve) { delete Object.prototype.then; resolve(["hijacked", v]); };
return {};
