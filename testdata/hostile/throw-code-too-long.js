// expect: error NOPE
// A tool error whose code the program replaced with a megabyte: the run
// reports the code the host gave the error, not what the program wrote.
try { await tools.fail() } catch (e) { e.code = "X".repeat(1 << 20); throw e }
