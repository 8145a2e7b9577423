// expect: ok [1, 2, 3]
// The call ids are the bridge's own counter: nothing a program does moves
// it (the count tool proves each call ran once, in order).
Number.prototype.valueOf = () => 7;
Object.defineProperty(Number.prototype, Symbol.toPrimitive, { value: () => 9, configurable: true });
const a = await tools.count();
const b = await tools.count();
const c = await tools.count();
return [a, b, c].map(x => x - a + 1);
