// expect: error UNCAUGHT_EXCEPTION|MEMORY_LIMIT
// The message getter allocates without bound while the error is
// formatted (the soft heap limit is lifted then): the hard cap holds.
throw { get message() { let s = "x"; for (;;) s = s + s } };
