// expect: error UNCAUGHT_EXCEPTION ~ formatted
// The uncaught value's message getter calls a tool while the host formats
// the error: the call may go out, the run still ends with the error.
throw { get message() { tools.count(); return "formatted" } };
