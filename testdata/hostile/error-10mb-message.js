// expect: error UNCAUGHT_EXCEPTION ~ xxxxxxxx
throw new Error("x".repeat(10 * 1024 * 1024));
