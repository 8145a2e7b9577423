// expect: error TIMEOUT
// limits: timeout=500ms
// The message getter of the uncaught value never returns: the host's
// deadline still stops the run while the error is formatted.
throw { get message() { for (;;) {} } };
