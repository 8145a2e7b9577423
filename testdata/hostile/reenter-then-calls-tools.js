// expect: ok 10
// A then on the results (Object.prototype) that calls more tools, bounded:
// every await of a tool result runs program code that makes calls.
let calls = 0;
Object.prototype.then = function (resolve) {
  delete Object.prototype.then;
  calls++;
  const p = calls < 10 ? tools.echo({ n: calls }) : null;
  resolve(p);
  Object.prototype.then = arguments.callee;
};
const install = Object.prototype.then;
await tools.echo({});
delete Object.prototype.then;
return calls;
