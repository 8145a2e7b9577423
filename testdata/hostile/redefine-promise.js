// expect: ok [3, 5]
// Promise replaced by a class that records and breaks everything.
const Orig = Promise;
globalThis.Promise = class { constructor() { throw new Error("no promises") } static resolve() { throw 1 } static reject() { throw 2 } static all() { throw 3 } };
const a = await tools.add({ a: 1, b: 2 });
const b = await tools.add({ a: 2, b: 3 });
return [a, b];
