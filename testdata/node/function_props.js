// The own properties every new function gets, 'length' and 'name': their
// values, descriptors and order, for each kind of function a program
// makes (declarations, expressions, arrows, async and generator functions,
// methods, getters, classes, bound functions, built-ins' results), and
// what a program can then do with them (redefine, delete, add, freeze).
// (V8 gives a sloppy function own 'arguments' and 'caller' as well, an
// extension the standard allows and QuickJS does not make: left out.)
const out = [];
const names = (f) => Object.getOwnPropertyNames(f).filter((k) => k !== 'arguments' && k !== 'caller');
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const describe = (f) => names(f).map((k) => {
  const d = Object.getOwnPropertyDescriptor(f, k);
  return [k, typeof d.value === 'object' && d.value !== null ? 'object' : d.value, d.writable, d.enumerable, d.configurable];
});
function decl(a, b) { return a + b; }
async function asyncDecl(a) { return a; }
function* gen(a, b, c) { yield a; }
async function* agen() {}
const o = { m(a) { return a; }, get g() { return 1; }, set g(v) {}, ['comp' + 'uted'](x, y) {}, async am() {}, *gm(a) {} };
class C { constructor(a, b) {} method(x) {} static s(a, b, c) {} }
const kinds = {
  decl, asyncDecl, gen, agen,
  expr: function (a) {}, named: function inner(a, b) {}, arrow: (a, b, c) => a, arrow0: () => 1,
  asyncArrow: async (x) => x, defaults: function (a, b = 1, c) {}, rest: (...r) => r, destr: ({ a }, [b]) => a,
  method: o.m, computed: o.computed, asyncMethod: o.am, genMethod: o.gm,
  getter: Object.getOwnPropertyDescriptor(o, 'g').get, setter: Object.getOwnPropertyDescriptor(o, 'g').set,
  cls: C, clsMethod: C.prototype.method, clsStatic: C.s, bound: decl.bind(null, 1), bound0: decl.bind(null, 1, 2, 3),
  fromFunction: new Function('a', 'b', 'return a'), promiseResolve: (() => { let r; new Promise((res) => { r = res; }); return r; })(),
};
for (const [k, f] of Object.entries(kinds)) {
  t(`${k} own properties`, () => describe(f));
  t(`${k} length and name`, () => [f.length, f.name]);
}
const made = [];
for (let i = 0; i < 5; i++) made.push((x, y) => x + y + i);
t('closures in a loop', () => made.map((f) => [f.length, f.name, Object.keys(f).length, f(1, 2)]));
t('closures share nothing', () => { made[0].extra = 1; return [made[0].extra, made[1].extra, names(made[1])]; });
t('redefine length', () => { const f = (a) => a; Object.defineProperty(f, 'length', { value: 7 }); return describe(f); });
t('assign length', () => { 'use strict'; const f = (a) => a; try { f.length = 3; } catch (e) { return ['throws ' + e.name, f.length]; } return f.length; });
t('delete name', () => { const f = function named() {}; delete f.name; return [f.name, names(f), Object.prototype.hasOwnProperty.call(f, 'name')]; });
t('delete then add', () => { const f = () => 1; delete f.length; f.length = 5; f.x = 1; return describe(f); });
t('freeze', () => { const f = (a, b) => a; Object.freeze(f); return [Object.isFrozen(f), describe(f)]; });
t('name from variable', () => { const namedLater = () => 1; let v = function () {}; return [namedLater.name, v.name]; });
t('name from property', () => { const p = { q: () => 1, r: function () {} }; return [p.q.name, p.r.name]; });
t('prototype', () => [Object.prototype.hasOwnProperty.call(decl, 'prototype'), Object.prototype.hasOwnProperty.call(kinds.arrow, 'prototype'), names(function () {})]);
return out;
