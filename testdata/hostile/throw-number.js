// expect: error UNCAUGHT_EXCEPTION ~ 42
throw 42;
