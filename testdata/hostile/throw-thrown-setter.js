// expect: error UNCAUGHT_EXCEPTION
// A setter on Object.prototype named "thrown" swaps in a megabyte while
// the error is formatted: the report stays bounded.
Object.defineProperty(Object.prototype, "thrown", {
  set(v) { Object.defineProperty(this, "thrown", { value: "t".repeat(1 << 20), enumerable: true }) },
  configurable: true,
});
throw 1;
