// expect: error MEMORY_LIMIT
let s = "xy";
while (true) s = s + s + "z";
