// expect: error UNCAUGHT_EXCEPTION
// A setter on Object.prototype tries to add an errorCode while the error is formatted: the report object has no prototype.
Object.defineProperty(Object.prototype, "message", {
  set(v) { Object.defineProperty(this, "errorCode", { value: "MEMORY_LIMIT", enumerable: true }); Object.defineProperty(this, "message", { value: v, enumerable: true }) },
  configurable: true,
});
throw 1;
