// expect: error UNCAUGHT_EXCEPTION ~ small
const e = new Error("small");
e.stack = "y".repeat(5 * 1024 * 1024);
e.name = "N".repeat(1 << 20);
throw e;
