// expect: error NOPE|UNCAUGHT_EXCEPTION
// known-bug: the program can rename a caught ToolError's code (any code-like string, here TIMEOUT) and rethrow it; the run then fails with that code though no cap was hit
try { await tools.fail() } catch (e) { e.code = "TIMEOUT"; throw e }
