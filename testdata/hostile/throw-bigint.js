// expect: error UNCAUGHT_EXCEPTION ~ 123
throw 123n;
