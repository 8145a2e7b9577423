// expect: error STACK_OVERFLOW
// Overflow, caught at every level and rethrown.
function f(n) { try { return f(n + 1) } catch (e) { throw e } }
f(0);
