// expect: error UNCAUGHT_EXCEPTION
// A tool error whose code the program replaced with a megabyte: a code
// that does not look like one is not the run's code.
try { await tools.fail() } catch (e) { e.code = "X".repeat(1 << 20); throw e }
