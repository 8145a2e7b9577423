// expect: ok 3
// Promise.prototype.then/catch/finally and Promise.resolve replaced:
// await and the bridge use the originals.
Promise.prototype.then = function () { throw new Error("then") };
Promise.prototype.catch = function () { throw new Error("catch") };
Promise.prototype.finally = function () { throw new Error("finally") };
Promise.resolve = function () { throw new Error("resolve") };
return await tools.add({ a: 1, b: 2 });
