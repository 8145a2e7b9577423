// expect: error MEMORY_LIMIT
let s = "x".repeat(100 * 1024 * 1024);
return s.length;
