// A function's bytecode is made at its first call, not when the program
// is compiled (quickjs-zzl-lazy-functions): until then the function keeps
// its definition with its variables resolved. What a program can see must
// not change: the variables a closure captures and their values at the
// call, however much later it is, the function's own properties and
// source, `this`, `arguments`, `new.target`, errors and their stacks, and
// functions never called at all. Then generated programs of nested
// closures, called in a generated order, some never.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };

t('capture then change', () => { let x = 1; function f() { return x; } x = 2; return f(); });
t('capture a later declaration', () => { function f() { return y; } let y = 3; return f(); });
t('assign through a closure', () => { let x = 1; const set = (v) => { x = v; }; set(5); return x; });
t('loop bindings', () => { const fs = []; for (let i = 0; i < 4; i++) fs.push(() => i); return fs.map((f) => f()); });
t('loop bindings, called in reverse', () => { const fs = []; for (let i = 0; i < 4; i++) fs.push(function () { return i * 10; }); return fs.reverse().map((f) => f()); });
t('var in a loop', () => { const fs = []; for (var i = 0; i < 3; i++) fs.push(() => i); return fs.map((f) => f()); });
t('never called', () => { function never() { return undefinedName.x; } return typeof never; });
// (the source text is what esbuild printed: compared by its words)
const words = (f) => String(f).match(/[A-Za-z_]\w*|=>|[-+*\/]/g);
t('never called, source', () => { function never(a, b) { return a + b; } return words(never); });
t('arrow source', () => { const f = (x) => x * 2; return words(f); });
t('length and name', () => { function f(a, b = 1, c) {} const g = (...r) => r; return [f.length, f.name, g.length, g.name]; });
t('name from a variable', () => { const h = function () {}; const k = () => {}; return [h.name, k.name]; });
t('own properties', () => { function f(a) {} return Object.getOwnPropertyNames(f).filter((k) => k !== 'arguments' && k !== 'caller').sort(); });
t('prototype before a call', () => { function F() { this.a = 1; } F.prototype.m = function () { return this.a + 1; }; return new F().m(); });
t('first call as a constructor', () => { function F(v) { this.v = v; } const o = new F(4); return [o.v, o instanceof F, Object.getPrototypeOf(o) === F.prototype]; });
t('new.target', () => { function F() { return new.target === F; } function G() { return new.target; } return [new F() instanceof F, G()]; });
t('constructor returning an object', () => { function F() { return { x: 1 }; } return new F(); });
t('this, sloppy', () => { function f() { return typeof this; } return f(); });
t('this, strict', () => { 'use strict'; function f() { return this; } return [f(), f.call(7)]; });
t('this in an arrow', () => { const o = { v: 3, m() { const a = () => this.v; return a(); } }; return o.m(); });
t('arguments, mapped', () => { function f(a, b) { a = 9; return [arguments.length, arguments[0], b]; } return f(1); });
t('arguments, strict', () => { 'use strict'; function f(a) { a = 9; return [arguments.length, arguments[0]]; } return f(1, 2); });
t('arguments in an arrow', () => { function f() { const g = () => arguments[1]; return g(); } return f('a', 'b'); });
t('defaults see earlier parameters', () => { function f(a, b = a * 2, c = () => a + b) { return c(); } return [f(1), f(1, 5)]; });
t('default closes over the body', () => { let x = 'outer'; function f(g = () => x) { let x = 'inner'; return g(); } return f(); });
t('destructured parameters', () => { const f = ({ a, b: [c, d = 4] }) => a + c + d; return f({ a: 1, b: [2] }); });
t('recursion', () => { function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); } return fact(10); });
t('mutual recursion', () => { function even(n) { return n === 0 ? true : odd(n - 1); } function odd(n) { return n === 0 ? false : even(n - 1); } return [even(10), odd(7)]; });
t('named expression sees itself', () => { const f = function me(n) { return n ? me(n - 1) + 1 : 0; }; return f(5); });
t('call, apply, bind', () => { function f(a, b) { return [this.v, a, b]; } const o = { v: 1 }; return [f.call(o, 2, 3), f.apply(o, [4, 5]), f.bind(o, 6)(7)]; });
t('bound first, called later', () => { function f(a) { return a + 1; } const g = f.bind(null); return [g.name, g.length, g(1)]; });
t('one definition, many closures', () => { const make = (k) => (x) => x + k; const fs = [1, 2, 3].map(make); return [fs[2](10), fs[0](10), fs[1](10)]; });
t('closure made before, called from another', () => { const fs = [0, 1].map((i) => () => i); const g = fs[1]; return [g(), fs[0]()]; });
t('nested, inner first call later', () => { function outer(a) { function mid(b) { function inner(c) { return a + b + c; } return inner; } return mid; } const m = outer(1); const i = m(2); return i(3); });
t('inner captures a variable the outer changes', () => { function outer() { let n = 0; const inc = () => ++n; inc(); inc(); return [n, inc()]; } return outer(); });
t('block scoped function', () => { let r; { function inBlock() { return 'b'; } r = inBlock(); } return r; });
t('hoisted call before definition', () => { return early(); function early() { return 'hoisted'; } });
t('getter from defineProperty', () => { const o = {}; Object.defineProperty(o, 'x', { get: function () { return 42; } }); return o.x; });
t('callbacks of built-ins', () => [1, 2, 3].map((x) => x * 2).filter(function (x) { return x > 2; }).reduce((a, b) => a + b));
t('sort comparator', () => [3, 1, 2].sort((a, b) => a - b));
t('async function', async () => { async function f(x) { await null; return x + 1; } return await f(1); });
t('async arrow never called', () => { const f = async () => 1; return [typeof f, f.constructor.name]; });
t('generator', () => { function* g(n) { for (let i = 0; i < n; i++) yield i; } return [...g(4)]; });
t('generator never called', () => { function* g() { yield 1; } return [typeof g, g.length]; });
t('async generator', async () => { async function* g() { yield 1; yield 2; } const r = []; for await (const v of g()) r.push(v); return r; });
t('error at the first call', () => { function f(o) { return o.missing.x; } try { f({}); } catch (e) { return [e.name, e.message]; } });
t('stack of an error at the first call', () => {
  function inner() { throw new Error('boom'); }
  function outer() { return inner(); }
  try { outer(); } catch (e) { return e.stack.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('at ')).slice(0, 2).map((l) => l.split(' ')[1]); }
});
t('error line of a lazy function', () => {
  const f = function () {
    return null.x;
  };
  try { f(); } catch (e) { return /<anonymous>|main|:\d+/.test(e.stack); }
});
t('too much recursion throws', () => { function r(n) { return r(n + 1) + 1; } try { r(0); } catch (e) { return e instanceof Error; } });
t('typeof and instanceof', () => { function f() {} const a = () => {}; return [typeof f, f instanceof Function, typeof a, a.prototype]; });
t('class with helper functions', () => { const helper = (x) => x * 3; class K { m(x) { return helper(x); } static s() { return helper(2); } } return [new K().m(1), K.s()]; });
t('function in an object literal', () => { const o = { f: function () { return this === o; }, g: () => typeof this }; return [o.f(), o.g()]; });
t('immediately invoked', () => (function (a) { return a * 2; })(21));
t('immediately invoked arrow', () => ((a) => a + 1)(1));
t('closure over a catch binding', () => { let f; try { throw 5; } catch (e) { f = () => e; } return f(); });
t('closure over a for-of binding', () => { const fs = []; for (const v of ['a', 'b']) fs.push(() => v); return fs.map((f) => f()); });
t('closure over a class binding', () => { class A { static n() { return 'A'; } } const f = () => A.n(); return f(); });
t('sloppy function assigns a global', () => { function f() { lazyGlobal = 7; } f(); const v = globalThis.lazyGlobal; delete globalThis.lazyGlobal; return v; });
t('with scope', () => new Function('o', 'with (o) { return (function () { return a + 1; })(); }')({ a: 1 }));
t('direct eval in the caller', () => new Function('var x = 4; function f() { return x; } return eval("f()");')());
t('direct eval in the function', () => { const f = new Function('a', 'return (function () { return eval("a * 2"); })();'); return f(5); });
t('new Function body', () => new Function('a', 'b', 'function h(x) { return x + a; } return h(b);')(1, 2));
t('toString after a call', () => { function f(a) { return a; } f(1); return words(f); });
t('source of an unused function in an object', () => { const o = { k: function (x) { return x; } }; return words(o.k); });

// Generated programs: nested closures over variables that change, made in
// loops, returned, stored and called in a generated order (some never).
let seed = 20261204;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const genFn = (depth, vars, id) => {
  const own = `v${id}`;
  const body = [];
  body.push(`let ${own} = ${rnd(10)};`);
  const all = vars.concat(own);
  const kids = depth > 0 ? 1 + rnd(3) : 0;
  const kidNames = [];
  for (let k = 0; k < kids; k++) {
    const kid = `f${id}_${k}`;
    kidNames.push(kid);
    const kind = rnd(3);
    const inner = genFn(depth - 1, all, `${id}_${k}`);
    if (kind === 0) body.push(`function ${kid}(p) { ${inner} }`);
    else if (kind === 1) body.push(`const ${kid} = (p) => { ${inner} };`);
    else body.push(`const ${kid} = function (p) { ${inner} };`);
  }
  const steps = 2 + rnd(5);
  for (let s = 0; s < steps; s++) {
    const v = all[rnd(all.length)];
    const r = rnd(5);
    if (r === 0) body.push(`${v} = ${v} * 2 + ${rnd(5)};`);
    else if (r === 1 && kidNames.length) body.push(`{ let g = ${kidNames[rnd(kidNames.length)]}(${v}); while (typeof g === 'function') g = g(${rnd(4)}); acc.push(g); }`);
    else if (r === 2 && kidNames.length) { const kn = kidNames[rnd(kidNames.length)]; body.push(`if (${v} % 3 === 0) { const g = ${kn}(${v}); acc.push(typeof g === 'function' ? g(1) : g); }`); }
    else if (r === 3) body.push(`for (let i = 0; i < 2; i++) { const c = () => ${v} + i; acc.push(c()); }`);
    else body.push(`acc.push(${v} + (p | 0));`);
  }
  if (kidNames.length && rnd(2)) body.push(`return ${kidNames[rnd(kidNames.length)]};`);
  else body.push(`return ${all[rnd(all.length)]};`);
  return body.join(' ');
};
for (let n = 0; n < 400; n++) {
  const src = `const acc = []; const top = (p) => { ${genFn(3, [], 'r')} }; let res = top(${rnd(7)}); for (let i = 0; i < 3 && typeof res === 'function'; i++) res = res(i); acc.push(typeof res === 'function' ? 'fn' : res); return acc;`;
  t(`generated ${n}`, () => new Function(src)());
}
return out;
