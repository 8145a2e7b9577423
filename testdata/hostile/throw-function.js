// expect: error UNCAUGHT_EXCEPTION ~ fn
throw function fn() {};
