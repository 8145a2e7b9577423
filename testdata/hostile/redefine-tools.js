// expect: ok [3, 3, "TypeError"]
// The tool proxies replaced, deleted, or shadowed: a captured function still
// reaches its tool with the real name, and a fake one reaches nothing.
const add = tools.add;
tools.add = () => 99;
delete tools.echo;
globalThis.tools = { add: () => 98 };
const a = await add({ a: 1, b: 2 });
add.name2 = "x";
Object.defineProperty(add, "name", { value: "fail" });
const b = await add({ a: 1, b: 2 });
let kind = "none";
try { await globalThis.tools.nothing() } catch (e) { kind = e.name }
return [a, b, kind];
