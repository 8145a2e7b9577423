// expect: error MEMORY_LIMIT
const a = new Array(1e7).fill(0).map((_, i) => i);
return a.length;
