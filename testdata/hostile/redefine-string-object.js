// expect: ok [3, true]
// String, Object, Array, Map, Set, WeakSet, Symbol gone.
for (const k of ["String", "Object", "Array", "Map", "Set", "WeakSet", "Symbol", "Math", "Number"]) globalThis[k] = undefined;
console.log("still logging", { a: 1 }, [1, 2]);
const v = await tools.add({ a: 1, b: 2 });
return [v, true];
