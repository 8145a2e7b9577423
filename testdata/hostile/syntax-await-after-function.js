// expect: ok 3
// An expression statement starting with await right after a function declaration (a QuickJS 2021 parser bug, patched in internal/guest/patches).
function helper(x) { return x }
await tools.add({ a: 1, b: 2 });
return helper(3);
