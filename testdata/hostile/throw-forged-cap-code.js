// expect: error NOPE
// The program renames a caught tool error's code to a cap's code and rethrows it: the run reports the code the host gave the error.
try { await tools.fail() } catch (e) { e.code = "TIMEOUT"; throw e }
