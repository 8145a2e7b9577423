// expect: error TIMEOUT
// limits: timeout=1s
// A 100k-deep result. QuickJS's JSON.stringify is iterative but checks for
// cycles against the whole path at each level (quadratic): at this depth
// it runs past the deadline, and the host stops it there (it polls while
// it allocates) rather than overflowing a stack.
let v = [];
for (let i = 0; i < 100000; i++) v = [v];
return v;
