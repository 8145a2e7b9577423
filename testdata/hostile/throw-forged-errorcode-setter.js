// expect: error UNCAUGHT_EXCEPTION
// known-bug: a setter on Object.prototype runs while the host formats the uncaught error (format assigns to a plain object) and can add an errorCode, so the run fails with a code of the program's choosing (here MEMORY_LIMIT)
Object.defineProperty(Object.prototype, "message", {
  set(v) { Object.defineProperty(this, "errorCode", { value: "MEMORY_LIMIT", enumerable: true }); Object.defineProperty(this, "message", { value: v, enumerable: true }) },
  configurable: true,
});
throw 1;
