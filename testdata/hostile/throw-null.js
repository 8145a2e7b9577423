// expect: error UNCAUGHT_EXCEPTION ~ null
throw null;
