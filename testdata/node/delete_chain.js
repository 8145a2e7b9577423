// delete through an optional chain deletes the property when the chain
// does not short-circuit, and is true when it does; QuickJS dropped the
// value and gave true without deleting anything.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
const fresh = () => ({ a: 1, b: { c: 2, d: { e: 3 } }, arr: [1, 2, 3], n: null });
t('dot', () => { const o = fresh(); return [delete o?.a, o]; });
t('deeper', () => { const o = fresh(); return [delete o.b?.c, o]; });
t('two tests', () => { const o = fresh(); return [delete o?.b?.d.e, o]; });
t('bracket', () => { const o = fresh(); return [delete o?.['b'], o]; });
t('index', () => { const o = fresh(); return [delete o.arr?.[1], o.arr, 1 in o.arr]; });
t('in parentheses', () => { const o = fresh(); return [delete (o?.arr), o]; });
t('short-circuit', () => { const o = fresh(); return [delete o.n?.x, delete o.zz?.q.r, o]; });
t('key not evaluated on short-circuit', () => { let side = 0; const o = fresh(); const k = () => { side++; return 'a'; }; return [delete o.n?.[k()], side, delete o?.[k()], side, o]; });
t('frozen, sloppy', () => { const f = Object.freeze({ x: 1 }); return [delete f?.x, f.x]; });
t('frozen, strict', () => { 'use strict'; const f = Object.freeze({ x: 1 }); return delete f?.x; });
t('non-configurable', () => { const o = {}; Object.defineProperty(o, 'x', { value: 1 }); return [delete o?.x, o.x]; });
t('proxy trap', () => { const log = []; const p = new Proxy({ a: 1 }, { deleteProperty(t, k) { log.push(k); return delete t[k]; } }); return [delete p?.a, log]; });
t('in an expression', () => { const o = fresh(); return [!delete o?.a, o]; });
t('in a condition', () => { const o = fresh(); return (delete o?.a) ? Object.keys(o) : 'no'; });
t('typeof after', () => { const o = fresh(); delete o?.a; return typeof o.a; });
t('delete call result member', () => { const o = { f() { return this; }, g: 1 }; return [delete o.f?.().g, o]; });
// generated: delete of chains of optional and plain accesses, through a
// seeded generator, so both engines see the same 2,000 expressions
let seed = 7;
const rnd = (m) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m; };
const steps = ['?.b', '.b', '?.d', '.d', '?.["d"]', '?.e', '.e', '?.n', '.n', '?.arr', '?.[0]', '[1]', '?.zz', '?.a'];
for (let i = 0; i < 2000; i++) {
  let e = ['o', 'o.b', 'o.n', 'u'][rnd(4)];
  for (let j = 1 + rnd(3); j > 0; j--) e += steps[rnd(steps.length)];
  if (!e.includes('?.')) e = e.replace('.', '?.');
  if (rnd(3) === 0) e = '(' + e + ')';
  t(i + ' delete ' + e, () => {
    const o = fresh();
    o.b.d.arr = [1, 2];
    const r = new Function('o', 'u', 'return delete ' + e)(o, undefined);
    return [r, JSON.stringify(o)];
  });
}
return out;
