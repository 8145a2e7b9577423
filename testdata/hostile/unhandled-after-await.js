// expect: ok 3
// A tool rejection that happens while the program awaits something else,
// never handled.
const p = tools.fail();
const v = await tools.add({ a: 1, b: 2 });
await tools.slow({});
return v;
