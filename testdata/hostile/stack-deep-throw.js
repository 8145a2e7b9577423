// expect: error UNCAUGHT_EXCEPTION ~ bottom
function f(n) { if (n === 0) throw new Error("bottom"); return f(n - 1) + 1 }
return f(1500);
