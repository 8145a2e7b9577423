// expect: error UNCAUGHT_EXCEPTION ~ Symbol(sym)
throw Symbol("sym");
