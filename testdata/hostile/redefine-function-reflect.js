// expect: ok 3
// Function.prototype.call/apply/bind, Reflect and Object's statics broken.
Function.prototype.call = function () { throw new Error("call") };
Function.prototype.apply = function () { throw new Error("apply") };
Function.prototype.bind = function () { throw new Error("bind") };
globalThis.Reflect = null;
Object.defineProperty = function () { throw new Error("defineProperty") };
Object.keys = function () { throw new Error("keys") };
Object.create = function () { throw new Error("create") };
return await tools.add({ a: 1, b: 2 });
