// expect: ok 3
// known-bug: the bridge chains the program's promise with the captured Promise.prototype.then, which still reads constructor[Symbol.species]; a species getter that throws makes start throw, so the run fails with UNCAUGHT_EXCEPTION before anything runs
Object.defineProperty(Promise, Symbol.species, { get() { throw new Error("species") }, configurable: true });
return await tools.add({ a: 1, b: 2 });
