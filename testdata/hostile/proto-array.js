// expect: ok {"tool": "/echo", "args": {"list": [1, 2, 3]}}
// Array.prototype pollution: indexed setters, push, join, map replaced.
Object.defineProperty(Array.prototype, "0", { set() { throw new Error("index setter") }, configurable: true });
Array.prototype.push = function () { throw new Error("push") };
Array.prototype.join = function () { throw new Error("join") };
Array.prototype.map = function () { throw new Error("map") };
Array.prototype[Symbol.iterator] = function () { throw new Error("iterator") };
const list = [];
list.length = 3; list[1] = 2; list[2] = 3;
Object.defineProperty(list, "0", { value: 1, enumerable: true, writable: true });
return await tools.echo({ list });
