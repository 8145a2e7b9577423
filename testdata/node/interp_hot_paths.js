// The interpreter's fast paths (patch y6): object literals that share
// shapes, property reads and writes of own data properties, for-of over
// arrays, and the callbacks of filter/map/every/some/forEach/reduce. Each
// case also runs the general case next to the fast one: accessors,
// proxies, frozen objects, holes, non-writable length, prototype chains
// with setters (define, not put), exotic arrays, arrays changed while
// they are walked.
const out = [];
const t = (k, f) => {
  try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); }
};
const desc = (o) => Object.getOwnPropertyNames(o).map((k) => {
  const d = Object.getOwnPropertyDescriptor(o, k);
  return [k, 'value' in d ? d.value : (d.get ? 'get' : '') + (d.set ? 'set' : ''), d.writable, d.enumerable, d.configurable];
});

// ---- object literals
const mk = (i) => ({ id: i, name: 'n' + i, v: i * 1.5, ok: i % 2 === 0, tags: ['t' + i] });
t('literal many same shape', () => { const a = []; for (let i = 0; i < 300; i++) a.push(mk(i)); return [a.length, a[0], a[299], JSON.stringify(a[150])]; });
t('literal keys order', () => Object.keys({ b: 1, a: 2, 10: 3, 2: 4, c: 5, '01': 6 }));
t('literal numeric keys', () => { const r = []; for (let i = 0; i < 3; i++) r.push({ 0: 'a', 1: 'b', x: i }); return r.map((o) => [Object.keys(o), o[0], o[1], o.x]); });
t('literal duplicate keys', () => { const r = []; for (let i = 0; i < 3; i++) r.push({ a: 1, b: 2, a: 3 }); return r.map((o) => [Object.keys(o), o.a, o.b]); });
t('literal getter then value', () => { const r = []; for (let i = 0; i < 3; i++) r.push({ get a() { return 1; }, a: 2 }); return r.map(desc); });
t('literal value then getter', () => { const r = []; for (let i = 0; i < 3; i++) r.push({ a: 2, get a() { return 1; }, b: 3 }); return r.map(desc); });
t('literal setter only', () => { let s = []; const o = { set a(v) { s.push(v); }, b: 1 }; o.a = 5; return [desc(o), s, o.a]; });
t('literal __proto__', () => { const p = { inh: 1 }; const r = []; for (let i = 0; i < 3; i++) r.push({ x: i, __proto__: p, y: i }); return r.map((o) => [Object.keys(o), o.inh, Object.getPrototypeOf(o) === p]); });
t('literal __proto__ null', () => { const o = { __proto__: null, a: 1 }; return [Object.getPrototypeOf(o), o.a, Object.keys(o)]; });
t('literal spread', () => { const src = { a: 1, get b() { return 2; } }; const r = []; for (let i = 0; i < 3; i++) r.push({ z: 0, ...src, a: 9, c: i }); return r.map(desc); });
t('literal computed', () => { const r = []; for (let i = 0; i < 3; i++) r.push({ a: 1, ['k' + (i % 2)]: i, b: 2 }); return r.map((o) => Object.entries(o)); });
t('literal methods', () => { const o = { a: 1, m() { return this.a; }, b: 2 }; const p = { a: 3, m() { return super.toString === Object.prototype.toString; } }; return [o.m(), p.m(), Object.keys(o)]; });
t('literal setter on Object.prototype', () => {
  const log = [];
  Object.defineProperty(Object.prototype, 'zzSet', { set(v) { log.push(v); }, get() { return 'proto'; }, configurable: true });
  try { const r = []; for (let i = 0; i < 3; i++) r.push({ zzSet: i, other: 1 }); return [r.map(desc), log]; } finally { delete Object.prototype.zzSet; }
});
t('literal readonly on Object.prototype', () => {
  Object.defineProperty(Object.prototype, 'zzRo', { value: 'ro', writable: false, configurable: true });
  try { const r = []; for (let i = 0; i < 2; i++) r.push({ a: 1, zzRo: i }); return r.map(desc); } finally { delete Object.prototype.zzRo; }
});
t('literal then change one', () => {
  const a = []; for (let i = 0; i < 5; i++) a.push({ p: i, q: i });
  a[1].r = 1; delete a[2].p; Object.freeze(a[3]); a[4].p = 'x';
  const b = []; for (let i = 0; i < 3; i++) b.push({ p: i, q: i });
  return [a.map((o) => [Object.keys(o), o.p, Object.isFrozen(o)]), b.map((o) => [Object.keys(o), Object.isFrozen(o)])];
});
t('literal frozen then new', () => { const o = Object.freeze({ f: 1, g: 2 }); const n = { f: 3, g: 4 }; n.f = 5; o.f = 6; return [o, n, Object.isFrozen(n)]; });
t('literal long 40', () => {
  const mk40 = (i) => ({ k0: i, k1: 1, k2: 2, k3: 3, k4: 4, k5: 5, k6: 6, k7: 7, k8: 8, k9: 9, k10: 10, k11: 11, k12: 12, k13: 13, k14: 14, k15: 15, k16: 16, k17: 17, k18: 18, k19: 19, k20: 20, k21: 21, k22: 22, k23: 23, k24: 24, k25: 25, k26: 26, k27: 27, k28: 28, k29: 29, k30: 30, k31: 31, k32: 32, k33: 33, k34: 34, k35: 35, k36: 36, k37: 37, k38: 38, k39: i });
  const r = [mk40(1), mk40(2), mk40(3)]; r[1].extra = 1; delete r[2].k35;
  return r.map((o) => [Object.keys(o).length, o.k0, o.k31, o.k32, o.k39, o.k35, Object.keys(o).slice(-2)]);
});
t('literal prefix shapes', () => { const r = [{ a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, { a: 1 }, { a: 1, c: 3 }, { b: 1, a: 2 }]; r[0].b = 5; return r.map((o) => Object.entries(o)); });
t('literal nested', () => { const r = []; for (let i = 0; i < 3; i++) r.push({ a: { b: { c: i } }, d: [{ e: i }] }); return JSON.stringify(r); });
t('literal symbol keys', () => { const s = Symbol('s'); const r = []; for (let i = 0; i < 2; i++) r.push({ [s]: i, a: 1 }); return r.map((o) => [o[s], Object.keys(o), Object.getOwnPropertySymbols(o).length]); });
t('literal many distinct', () => { const r = []; for (let i = 0; i < 200; i++) { const o = { base: i }; o['k' + i] = i; r.push(o); } return [r.length, Object.keys(r[199]), r[5].k5]; });
t('literal in a loop with gc', () => { let s = 0; for (let j = 0; j < 20; j++) { const a = []; for (let i = 0; i < 500; i++) a.push({ x: i, y: j, z: { w: i } }); s += a[j].x + a[499].z.w; } return s; });

// ---- class fields use the same opcode: define, not put (a class field on
// a proxy or frozen object a base constructor returned is left out: QuickJS
// 2021 differs from Node there, with or without the fast path)
t('class field over proto setter', () => {
  const log = [];
  class A { set x(v) { log.push('set ' + v); } get x() { return 'getter'; } }
  class B extends A { x = 1; y = 2; }
  const b1 = new B(), b2 = new B();
  return [desc(b1), desc(b2), log];
});
t('class field on non-extensible super result', () => {
  class A { constructor() { return Object.preventExtensions({ q: 1 }); } }
  class B extends A { q = 5; }
  const b = new B(); return desc(b);
});
// (class fields reach the engine as written only through the Function
// constructor: a program's own classes are lowered before they run)
const fieldOn = new Function('o', 'class A { constructor() { return o; } } class B extends A { w = 2; 0 = "z"; } return new B();');
t('class field new on non-extensible super result', () => {
  const o = Object.preventExtensions({ q: 1 });
  const r = []; try { fieldOn(o); } catch (e) { r.push(e.name); } r.push(Object.keys(o)); return r;
});
t('class field new on sealed and frozen', () => [Object.seal({ q: 1 }), Object.freeze({ q: 1 })].map((o) => { try { fieldOn(o); return 'defined'; } catch (e) { return [e.name, Object.keys(o)]; } }));
t('class field on proxy via Function', () => { const log = []; const px = new Proxy({}, { defineProperty(tg, k, d) { log.push(String(k)); return Reflect.defineProperty(tg, k, d); } }); fieldOn(px); return [log, Object.keys(px)]; });
t('class field on array via Function', () => { const a = [1]; fieldOn(a); return [a.length, a[0], a.w, Object.keys(a)]; });
t('class field plain via Function', () => { const o = { q: 1 }; fieldOn(o); const p = {}; fieldOn(p); return [desc(o), desc(p)]; });
t('class field redefining non-configurable', () => {
  class A { constructor() { const o = {}; Object.defineProperty(o, 'f', { value: 1, writable: true }); return o; } }
  class B extends A { f = 2; }
  return desc(new B());
});
t('class field on array super result', () => {
  class A { constructor() { return [1, 2]; } }
  class B extends A { length = 0; 1 = 'x'; k = 'y'; }
  const b = new B(); return [b.length, b[0], b[1], b.k, Array.isArray(b)];
});
t('class fields many instances', () => { class P { a = 1; b = this.a + 1; c = [this.b]; } const r = []; for (let i = 0; i < 50; i++) r.push(new P()); return [r[49], Object.keys(r[0])]; });

// ---- property reads
t('get own data', () => { const o = { a: 1, b: 'x' }; let s = ''; for (let i = 0; i < 5; i++) s += o.a + o.b; return s; });
t('get own getter', () => { let n = 0; const o = { get a() { return ++n; } }; return [o.a, o.a, o.a + o.a]; });
t('get inherited', () => { const p = { a: 1, get g() { return this.a * 10; } }; const o = Object.create(p); o.a = 2; return [o.a, o.g, p.g, o.missing]; });
t('get proxy', () => { const log = []; const px = new Proxy({ a: 1 }, { get(tg, k) { log.push(String(k)); return k === 'a' ? 42 : tg[k]; } }); return [px.a, px.b, log]; });
t('get primitive', () => ['abc'.length, (5).toFixed(1), true.toString(), 'xy'[1], Symbol('q').description]);
t('get array length', () => { const a = [1, 2, 3]; a.length = 1; return [a.length, [].length, new Array(7).length]; });
t('get null undefined', () => { const r = []; for (const v of [null, undefined]) { try { r.push(v.x); } catch (e) { r.push(e.constructor.name); } } return r; });
t('get after delete', () => { const o = { a: 1, b: 2 }; const r = [o.a]; delete o.a; r.push(o.a, o.b); Object.prototype.zzA = 'p'; o.zzA; r.push(o.zzA); delete Object.prototype.zzA; r.push(o.zzA); return r; });
t('get module-like varref', () => { const f = function () { return arguments.length; }; return [f(1, 2), f()]; });

// ---- property writes
t('put own data', () => { const o = { a: 1 }; for (let i = 0; i < 5; i++) o.a += i; o.b = 3; o.b++; return o; });
t('put frozen sloppy', () => { const o = Object.freeze({ a: 1 }); o.a = 2; o.b = 3; return [o.a, o.b]; });
t('put frozen strict', () => { 'use strict'; const o = Object.freeze({ a: 1 }); o.a = 2; return o.a; });
t('put non-writable strict', () => { 'use strict'; const o = {}; Object.defineProperty(o, 'a', { value: 1, writable: false, configurable: true }); o.a = 2; return o.a; });
t('put non-writable sloppy', () => { const o = {}; Object.defineProperty(o, 'a', { value: 1, writable: false }); o.a = 2; return o.a; });
t('put own setter', () => { const log = []; const o = { set a(v) { log.push(v); }, get a() { return 'g'; } }; o.a = 1; o.a += 1; return [log, o.a]; });
t('put inherited setter', () => { const log = []; const p = { set a(v) { log.push(v); this._a = v; } }; const o = Object.create(p); o.a = 1; o.a = 2; return [log, Object.keys(o), o._a]; });
t('put inherited readonly', () => { const p = Object.freeze({ a: 1 }); const o = Object.create(p); o.a = 2; let strict; try { (function () { 'use strict'; o.a = 3; })(); } catch (e) { strict = e.name; } return [o.a, Object.keys(o), strict]; });
t('put proxy', () => { const log = []; const px = new Proxy({}, { set(tg, k, v) { log.push(k + '=' + v); tg[k] = v * 2; return true; } }); px.a = 1; px.a = px.a + 1; return [log, px.a]; });
t('put array length', () => { const a = [1, 2, 3, 4]; a.length = 2; const b = [1, 2]; b.length = 5; let e; try { a.length = -1; } catch (x) { e = x.name; } return [a, b.length, 3 in b, e]; });
t('put non-writable length', () => { const a = [1, 2]; Object.defineProperty(a, 'length', { writable: false }); const r = []; try { a.push(3); } catch (e) { r.push(e.name); } a.length = 9; r.push(a.length); try { 'use strict'; (function () { 'use strict'; a.length = 0; })(); } catch (e) { r.push(e.name); } a[5] = 1; r.push(a.length, a[5]); return r; });
t('put primitive', () => { const r = []; try { (function () { 'use strict'; 'str'.x = 1; })(); } catch (e) { r.push(e.name); } const s = 'abc'; s.y = 1; r.push(s.y); return r; });
t('put counts', () => { const g = { count: 0, total: 0 }; for (let i = 0; i < 100; i++) { g.count++; g.total += i / 10; } return g; });

// ---- numbers: an int and a float added and compared
t('add int float', () => { let s = 0; const r = []; for (const x of [0.5, 1, 1.5, 2, -0, NaN, Infinity, 2147483647, -2147483648]) { s += x; r.push(s, 1 + x, x + 1); } return r.map(String); });
t('add to minus zero', () => [0 + -0, -0 + 0, Object.is(-0 + -0, -0), Object.is(0.5 + -0.5, 0), Object.is(-0 + 0, 0), 1 / (-0 + -0)]);
t('add float to int result', () => { const a = 0.5 + 0.5; return [a === 1, a + 1, Object.is(a, 1), [a].includes(1), 2147483647 + 0.5, 2147483647 + 1.0]; });
t('compare int float', () => { const v = [-1, 0, -0, 0.5, 1, 1.0, NaN, Infinity, -Infinity, 2147483647, 2147483648.5]; const r = []; for (const a of v) for (const b of v) r.push([a < b, a <= b, a > b, a >= b, a == b, a != b, a === b, a !== b].map(Number).join('')); return r; });
t('compare mixed types', () => [1 < '2', '10' < 9, null >= 0, undefined < 1, 1 == '1', 1 === '1', 0.5 < true, [2] > 1.5, ({ valueOf() { return 3.5; } }) > 3]);

t('post inc dec', () => { const r = []; for (const v0 of [0, -1, 2147483647, -2147483648, 1.5, '5', 'x', null, undefined, true, 10n, -0]) { let a = v0, b = v0; const x = a++, y = b--; r.push([String(x), String(a), String(y), String(b), typeof a]); } return r; });
t('post inc object', () => { let n = 0; const o = { valueOf() { n++; return 41; } }; let v = o; const old = v++; return [old, v, n]; });
t('post inc property', () => { const o = { c: 2147483646 }; const r = [o.c++, o.c++, o.c, o.c--]; return [r, o.c]; });

// ---- a string and an int concatenated
t('concat string int', () => { const r = []; for (const n of [0, 7, -1, 10, -2147483648, 2147483647, 123456]) r.push('t' + n, n + 't', '' + n, n + '', 'é' + n, n + 'ü', '😀' + n, n + '日本', 'a' + n + 'b' + -n); return r; });
t('concat builds in place', () => { let s = ''; for (let i = 0; i < 300; i++) s = s + i; let u = 'x'; for (let i = 0; i < 50; i++) u += i; return [s.length, s.slice(0, 20), s.slice(-12), u]; });
t('concat shared string', () => { const base = 'k'; const a = []; for (let i = 0; i < 5; i++) a.push(base + i, i + base); return [a, base]; });
t('concat float and others', () => ['s' + 1.5, 1.5 + 's', 's' + -0, -0 + 's', 's' + NaN, 's' + true, 's' + null, 's' + undefined, 's' + [1, 2], 's' + { toString() { return 'o'; } }, 1 + { valueOf() { return 2; } }, 's' + 10n]);

// ---- Set and Map keys
t('set string keys', () => { const st = new Set(); for (let i = 0; i < 50; i++) st.add('t' + (i % 7)); st.add('t1'); st.add(['t', 1].join('')); return [st.size, [...st]]; });
t('map string keys mixed', () => {
  const m = new Map(); const keys = ['', 'a', 'ab', 'ba', 'é', 'e\u0301', '\u00e9', '日本', 'a\0b', 'a\0c', '1', 1, -0, 0, NaN, NaN, null, undefined, 'undefined', 'null'];
  for (const k of keys) m.set(k, (m.get(k) || 0) + 1);
  const wide = '日本'.slice(0, 1) + 'a'; m.set(wide, 'w'); m.set('日a', 'w2');
  const latinWide = ('\u0101x').slice(1); m.set(latinWide, 'lw'); m.set('x', 'x8');
  return [m.size, [...m].map(([k, v]) => [typeof k, String(k), v]), m.has('ab'), m.has('a' + 'b'), m.get('x'), m.delete('ab'), m.has('ab'), m.set('ab', 9).get('ab')];
});
t('set delete re-add', () => { const st = new Set(['x', 'y', 'z']); st.delete('y'); st.add('y' + ''); st.add('w'); st.delete('x'); return [...st]; });
t('weak and object keys', () => { const a = {}, b = {}; const m = new Map([[a, 1], [b, 2]]); const w = new WeakMap([[a, 'wa']]); return [m.get(a), m.get(b), m.get({}), w.get(a), w.has(b)]; });

// ---- array elements by index
t('element read', () => { const a = [1, 'b', null]; const r = []; for (let i = -1; i < 5; i++) r.push(a[i]); a.length = 6; r.push(a[4], a[-0], a[1.0], a['1'], a[2 ** 32]); return r.map(String); });
t('element read proto', () => { Array.prototype[3] = 'P'; Object.prototype[4] = 'O'; try { const a = [0, 1]; return [a[3], a[4], a[5], [0, , 2][1]]; } finally { delete Array.prototype[3]; delete Object.prototype[4]; } });
t('element read other kinds', () => { const ta = new Int8Array([1, -2]); const s = 'xyz'; const args = (function () { return arguments; })(7, 8); const o = { 0: 'o', 1: 'p' }; return [ta[1], ta[5], s[1], s[9], args[1], o[1], (function () { 'use strict'; return arguments[0]; })(3)]; });
t('element read getter', () => { const a = [1, 2, 3]; Object.defineProperty(a, 1, { get() { return 'g'; } }); return [a[0], a[1], a[2]]; });
t('element write', () => { const a = [1, 2, 3]; for (let i = 0; i < 3; i++) a[i] = a[i] * 10; a[3] = 'new'; a[6] = 'far'; a[-1] = 'neg'; return [a.length, Object.keys(a), a[5], a[-1]]; });
t('element write past a shrunk length', () => { const a = []; for (let i = 0; i < 10; i++) a.push(i); a.length = 3; a[5] = 'x'; const b = [1, 2, 3, 4]; b.pop(); b.pop(); b[2] = 'y'; return [a.length, a[5], 4 in a, a[4], b, b.length]; });
t('element write frozen', () => { const a = Object.freeze([1, 2]); a[0] = 9; let e; try { (function () { 'use strict'; a[1] = 9; })(); } catch (x) { e = x.name; } return [a, e]; });
t('element write setter on proto', () => { const log = []; Object.defineProperty(Array.prototype, 5, { set(v) { log.push(v); }, configurable: true }); try { const a = [1, 2]; a[1] = 'x'; a[5] = 'y'; a[2] = 'z'; return [a, log, a.length]; } finally { delete Array.prototype[5]; } });
t('element write non-writable element', () => { const a = [1, 2]; Object.defineProperty(a, 0, { writable: false }); a[0] = 9; a[1] = 8; return a; });
t('element write typed and args', () => { const ta = new Uint8Array(2); ta[0] = 300; ta[1] = -1; ta[5] = 1; const args = (function (x) { arguments[0] = 'changed'; return [x, arguments[0]]; })(1); return [Array.from(ta), ta[5], args]; });

// ---- for-of over arrays
const forOf = (a) => { const r = []; for (const v of a) r.push(v); return r; };
t('for-of plain', () => forOf([1, 'a', null, undefined, { b: 1 }]));
t('for-of holes', () => forOf([1, , 3, , ]));
t('for-of holes with proto', () => { Array.prototype[1] = 'P'; try { return [forOf([0, , 2]), forOf(new Array(3))]; } finally { delete Array.prototype[1]; } });
t('for-of length beyond count', () => { const a = [1, 2]; a.length = 4; return forOf(a); });
t('for-of push during', () => { const a = [1, 2, 3]; const r = []; for (const v of a) { r.push(v); if (v < 3) a.push(v + 10); } return r; });
t('for-of shrink during', () => { const a = [1, 2, 3, 4, 5]; const r = []; for (const v of a) { r.push(v); a.length = 3; } return r; });
t('for-of set during', () => { const a = [1, 2, 3]; const r = []; for (const v of a) { r.push(v); a[2] = 'x'; } return r; });
t('for-of converted to slow', () => { const a = [1, 2, 3, 4]; const r = []; for (const v of a) { r.push(v); if (v === 2) { a[100] = 'far'; delete a[2]; } } return [r.length, r.slice(0, 4)]; });
t('for-of getter element', () => { const a = [1, 2, 3]; Object.defineProperty(a, 1, { get() { return 'got'; } }); return forOf(a); });
t('for-of break and return', () => { const r = []; for (const v of [1, 2, 3]) { if (v === 2) break; r.push(v); } const f = () => { for (const v of [4, 5]) return v; }; return [r, f()]; });
t('for-of custom iterator method', () => {
  const save = Array.prototype[Symbol.iterator];
  Array.prototype[Symbol.iterator] = function* () { yield 'custom'; };
  try { return forOf([1, 2]); } finally { Array.prototype[Symbol.iterator] = save; }
});
t('for-of iterator is keys or entries', () => {
  const save = Array.prototype[Symbol.iterator];
  try { Array.prototype[Symbol.iterator] = Array.prototype.keys; const k = forOf([5, 6]); Array.prototype[Symbol.iterator] = Array.prototype.entries; const e = forOf([5, 6]); return [k, e]; } finally { Array.prototype[Symbol.iterator] = save; }
});
t('for-of custom next', () => {
  const AIP = Object.getPrototypeOf([][Symbol.iterator]()); const save = AIP.next; let n = 0;
  AIP.next = function () { return n++ < 2 ? { value: 'n' + n, done: false } : { value: undefined, done: true }; };
  try { return forOf([1, 2, 3]); } finally { AIP.next = save; }
});
t('for-of return hook on break', () => {
  const AIP = Object.getPrototypeOf([][Symbol.iterator]()); const log = [];
  AIP.return = function () { log.push('return'); return {}; };
  try { for (const v of [1, 2, 3]) { if (v === 2) break; } for (const v of [1]) { } return log; } finally { delete AIP.return; }
});
t('for-of arguments', () => (function () { return forOf(arguments); })(1, 2, 3));
t('for-of typed array', () => forOf(new Int16Array([1, -2, 3])));
t('for-of string', () => forOf('a😀b'));
t('for-of entries keys', () => [forOf(['a', 'b'].entries()), forOf(['a', 'b'].keys()), forOf([[1, 2]].values())]);
t('for-of set map', () => [forOf(new Set([3, 1, 3])), forOf(new Map([[1, 2]]))]);
t('for-of array subclass', () => { class A extends Array { } const a = A.from([1, 2]); return forOf(a); });
t('for-of frozen', () => forOf(Object.freeze([1, 2])));
t('for-of proxy of array', () => { const log = []; const px = new Proxy([1, 2], { get(tg, k) { log.push(String(k)); return Reflect.get(tg, k); } }); return [forOf(px), log]; });
t('for-of nested', () => { const r = []; for (const a of [[1, 2], [3]]) for (const b of a) r.push(b); return r; });
t('for-of destructure', () => { const r = []; for (const [k, v] of [[1, 2], [3, 4]]) r.push(k + v); for (const { a } of [{ a: 5 }]) r.push(a); return r; });

// ---- filter/map/every/some/forEach/reduce
const holes = [1, , 3, , 5];
t('filter basic', () => [1, 2, 3, 4, 5, 6].filter((x) => x % 2 === 0));
t('filter args', () => { const a = ['a', 'b']; const r = []; a.filter(function (v, i, arr) { r.push([v, i, arr === a, this.k]); return true; }, { k: 'this' }); return r; });
t('filter holes', () => [holes.filter(() => true), holes.map((x) => x * 2), holes.every((x) => x > 0), holes.some((x) => x === undefined)]);
t('filter holes with proto', () => { Array.prototype[1] = 'P'; try { return [holes.filter(() => true), holes.map((x) => x + '!'), [0, , 2].reduce((s, x) => s + x, '')]; } finally { delete Array.prototype[1]; } });
t('filter push during', () => { const a = [1, 2, 3]; return [a.filter((x) => { a.push(x); return true; }), a.length]; });
t('filter shrink during', () => { const a = [1, 2, 3, 4, 5]; return a.filter((x, i) => { if (i === 1) a.length = 2; return true; }); });
t('filter set during', () => { const a = [1, 2, 3]; return a.filter((x, i) => { a[i + 1] = 'x' + i; return true; }); });
t('filter delete during', () => { const a = [1, 2, 3, 4]; return a.map((x, i) => { if (i === 0) delete a[2]; return x; }); });
t('filter getter element', () => { const a = [1, 2, 3]; Object.defineProperty(a, 1, { get() { return 'got'; }, enumerable: true }); return [a.filter(() => true), a.map((x) => x), a.reduce((s, x) => s + x, '')]; });
t('filter array-like', () => { const o = { length: 3, 0: 'a', 2: 'c' }; return [Array.prototype.filter.call(o, () => true), Array.prototype.map.call(o, (x) => x + 1), Array.prototype.reduce.call(o, (s, x) => s + x)]; });
t('filter string', () => [Array.prototype.filter.call('abc', (c) => c !== 'b'), Array.prototype.map.call('ab', (c) => c + c)]);
t('filter typed array', () => [Array.from(new Uint8Array([1, 2, 3]).filter((x) => x > 1)), Array.from(new Float64Array([1.5, 2]).map((x) => x * 2))]);
t('filter proxy', () => { const log = []; const px = new Proxy([1, 2], { get(tg, k) { log.push(String(k)); return Reflect.get(tg, k); }, has(tg, k) { log.push('has ' + String(k)); return Reflect.has(tg, k); } }); return [px.filter(() => true), log]; });
t('filter species', () => { class A extends Array { } const a = A.from([1, 2, 3]); const f = a.filter((x) => x > 1); const m = a.map((x) => x * 2); return [f instanceof A, f, m instanceof A, m]; });
t('filter species frozen', () => { class A extends Array { static get [Symbol.species]() { return function () { return Object.freeze([]); }; } } const a = A.from([1, 2]); return a.filter(() => true); });
t('filter species non-writable length', () => {
  class A extends Array { static get [Symbol.species]() { return function () { const r = []; Object.defineProperty(r, 'length', { writable: false }); return r; }; } }
  const a = A.from([1, 2]); const r = []; try { a.filter(() => true); } catch (e) { r.push(e.name); } try { r.push(a.map((x) => x)); } catch (e) { r.push(e.name); } return r;
});
t('filter species object', () => {
  const log = [];
  class A extends Array { static get [Symbol.species]() { return function (n) { return new Proxy({}, { defineProperty(tg, k, d) { log.push(String(k) + ':' + d.value); return Reflect.defineProperty(tg, k, d); } }); }; } }
  const a = A.from([1, 2]); a.filter(() => true); a.map((x) => x * 3); return log;
});
t('filter species with setter', () => {
  const log = [];
  class A extends Array { static get [Symbol.species]() { return function () { const r = []; Object.defineProperty(r, 0, { set(v) { log.push(v); }, configurable: true }); return r; }; } }
  const a = A.from([7, 8]); const f = a.filter(() => true); return [log, Object.getOwnPropertyDescriptor(f, 0).value, f.length];
});
t('filter non-extensible result', () => { class A extends Array { static get [Symbol.species]() { return function () { return Object.preventExtensions([]); }; } } return [A.from([1]).filter(() => true)]; });
t('filter throws', () => { let n = 0; try { [1, 2, 3].filter((x) => { n++; if (x === 2) throw new Error('stop'); return true; }); } catch (e) { return [n, e.message]; } });
t('filter not callable', () => [1].filter(null));
t('every some forEach', () => { const r = []; [1, 2, 3].forEach((x, i) => r.push(x * i)); return [r, [1, 2, 3].every((x) => x < 3), [1, 2, 3].some((x) => x > 2), [].every(() => false), [].some(() => true)]; });
t('reduce', () => [[1, 2, 3].reduce((s, x) => s + x, 0), [1, 2, 3].reduce((s, x) => s + x), ['a', 'b'].reduceRight((s, x) => s + x), [[1], [2]].reduce((s, x) => s.concat(x), [])]);
t('reduce args', () => { const r = []; ['a', 'b', 'c'].reduce((acc, v, i, arr) => { r.push([acc, v, i, arr.length]); return acc + v; }); return r; });
t('reduce empty', () => [].reduce((s, x) => s + x));
t('reduce holes', () => [[, 1, , 2].reduce((s, x) => s + x), [, , 3].reduce((s, x) => s + x, 10), [, , 3].reduceRight((s, x) => s + '' + x, '')]);
t('reduce shrink during', () => { const a = [1, 2, 3, 4]; return a.reduce((s, x, i) => { if (i === 1) a.length = 2; return s + x; }, 0); });
t('reduce push during', () => { const a = [1, 2]; return [a.reduce((s, x) => { a.push(9); return s + x; }, 0), a.length]; });
t('map into frozen proto index', () => { Object.defineProperty(Array.prototype, 0, { set(v) { throw new Error('setter'); }, configurable: true }); try { return [[5, 6].map((x) => x + 1), [5, 6].filter(() => true)]; } finally { delete Array.prototype[0]; } });
t('big pipeline', () => {
  const recs = []; for (let i = 0; i < 2000; i++) recs.push({ id: i, g: 'g' + (i % 5), v: (i * 37) % 100, on: i % 3 !== 0 });
  const by = {};
  for (const r of recs.filter((r) => r.on && r.v > 5)) { const g = by[r.g] || (by[r.g] = { g: r.g, n: 0, s: 0, set: new Set() }); g.n++; g.s += r.v; g.set.add(r.v % 7); }
  return Object.values(by).map((g) => ({ g: g.g, n: g.n, s: g.s, set: [...g.set].sort() })).sort((a, b) => b.s - a.s || a.g.localeCompare(b.g));
});

return out;
