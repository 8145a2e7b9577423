// expect: error STACK_OVERFLOW
function f() { return f() + 1 }
return f();
