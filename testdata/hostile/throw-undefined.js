// expect: error UNCAUGHT_EXCEPTION ~ undefined
throw undefined;
