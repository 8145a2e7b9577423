// expect: ok [{"i": 1}, {"i": 2}, "pending"]
// A program cannot settle another call's promise: its resolvers are not
// reachable, and withResolvers/subclassing only make the program's own.
const { promise, resolve } = Promise.withResolvers();
const a = tools.slow({ i: 1 });
const b = tools.slow({ i: 2 });
resolve("forged");
class P extends Promise {}
P.resolve(a);
let state = "pending";
promise.then(() => {});
const r = await Promise.all([a, b]);
return [r[0], r[1], state];
