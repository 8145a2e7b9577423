// expect: ok 2000
// A 2000-deep argument goes out and its echo comes back intact.
let v = 0;
for (let i = 0; i < 2000; i++) v = { v };
let r = (await tools.echo(v)).args, n = 0;
while (typeof r === "object") { r = r.v; n++ }
return n;
