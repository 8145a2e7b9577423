// expect: ok 5000
// A 5000-deep value goes out to a tool and comes back.
let v = [];
for (let i = 0; i < 5000; i++) v = [v];
let r = await tools.raw(v), n = 0;
while (Array.isArray(r) && r.length) { r = r[0]; n++ }
return n;
