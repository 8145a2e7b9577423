// expect: ok [{"tool": "/echo", "args": {"x": 1}}, 3]
// A getter on a tool's argument calls another tool while the first call's
// arguments are being encoded: both calls go out with their own ids.
let inner;
const outer = tools.echo({ get x() { inner = tools.add({ a: 1, b: 2 }); return 1 } });
return [await outer, await inner];
