// expect: ok {"tool": "/echo", "args": {"a": [1, "x"]}}
// JSON replaced: the bridge captured JSON.parse and JSON.stringify at init.
globalThis.JSON = { stringify() { throw new Error("stringify") }, parse() { throw new Error("parse") } };
return await tools.echo({ a: [1, "x"] });
