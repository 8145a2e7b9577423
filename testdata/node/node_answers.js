// Answers a differential corpus of model-style programs found to differ
// from Node 22 (patch zzd): Number.prototype.toString with a radix for
// fractions and integers past 2^53, BigUint64Array and getBigUint64 with
// the top bit set, object spread and rest of a string, Promise.any's
// message, Date's zone name, V8's wording of common errors, and
// structuredClone of holes and array properties.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };

// a fixed generator, so that both engines see the same values
let seed = 0x2545f491;
const next = () => { seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0; return seed; };
const f64 = new Float64Array(1), u32 = new Uint32Array(f64.buffer);
const randomDouble = () => { u32[0] = next(); u32[1] = next(); return f64[0]; };

const radixes = [2, 3, 7, 8, 16, 36];
const fixed = [0.5, 255.5, -255.5, 0.1, 0.2, 1 / 3, Math.PI, Math.E, 1e21, 2 ** 53, 2 ** 53 + 2, -(2 ** 60), 1e300, 1.7976931348623157e308,
  5e-324, 2.2250738585072014e-308, 123.456, 0.000001, 1e-7, 99.99, -0, 0, 35, 1234567890123.5, 0.999999999999, 4503599627370495.5];
for (const r of radixes) {
  for (const v of fixed) t('toString(' + r + ') ' + v, () => v.toString(r));
}
// Math.random().toString(36): the id idiom
for (let i = 0; i < 200; i++) {
  const v = (next() * 2 ** 21 + (next() >>> 11)) / 2 ** 53;
  t('random ' + i, () => v.toString(36) + ' ' + v.toString(16) + ' ' + v.toString(2));
}
// any double: every exponent, finite ones only
for (let i = 0; i < 300; i++) {
  const v = randomDouble();
  if (!isFinite(v)) continue;
  const r = radixes[i % radixes.length];
  t('double ' + i + ' radix ' + r, () => v.toString(r));
}

for (let i = 0; i < 100; i++) {
  const hi = BigInt(next()), lo = BigInt(next());
  const v = (hi << 32n) | lo;
  t('BigUint64Array ' + i, () => new BigUint64Array([v])[0].toString(16));
  t('getBigUint64 ' + i, () => { const d = new DataView(new ArrayBuffer(8)); d.setBigUint64(0, v); return d.getBigUint64(0).toString(16) + ' ' + d.getBigInt64(0); });
}
t('BigUint64 top bit', () => [new BigUint64Array([0x8000000000000005n])[0], new BigUint64Array([2n ** 64n - 1n])[0], 12345678901234567890n].map(String));
t('getBigUint64 of a double', () => { const d = new DataView(new ArrayBuffer(8)); d.setFloat64(0, -1e-6); return d.getBigUint64(0).toString(16); });

t('spread string', () => JSON.stringify({ ...'hi' }));
t('spread array and string', () => JSON.stringify({ ...[9, 8], ...'hi' }));
t('spread number and boolean', () => JSON.stringify({ ...5, ...true, ...null, ...undefined }));
t('rest of string', () => { const { 0: a, ...rest } = 'abc'; return [a, rest]; });
t('spread unicode string', () => JSON.stringify({ ...'a😀' }));

const settle = async (p) => { try { return await p; } catch (e) { return [e.name, e.message, e.errors]; } };
out.push(['Promise.any', await settle(Promise.any([Promise.reject(1), Promise.reject(2)]))]);
out.push(['Promise.any empty', await settle(Promise.any([]))]);

t('Date toString', () => [String(new Date(0)), new Date(Date.UTC(2024, 10, 28, 15, 4, 5)).toString(), new Date(0).toTimeString(), new Date(-8.64e15).toString()]);
t('toISOString invalid', () => new Date(NaN).toISOString());

t('assign to const', () => { const c = 1; c = 2; return c; });
t('assign to const in closure', () => { const c = 1; const f = () => { c = 2; }; f(); return c; });
t('let before init', () => { x; let x = 1; return x; });
t('class before init', () => { new K(); class K {} });
t('reduce empty', () => [].reduce((a, b) => a + b));
t('reduceRight empty', () => [].reduceRight((a, b) => a + b));
t('class without new', () => { class Point {} return Point(); });
t('anonymous class without new', () => { const C = class {}; return C(); });
t('structuredClone holes', () => { const c = structuredClone([1, , 3]); return [1 in c, c.length, Object.keys(c)]; });
t('structuredClone array props', () => { const a = [1, 2]; a.tag = 'x'; const c = structuredClone(a); return [c.tag, c.length]; });
t('structuredClone sparse', () => { const a = []; a[1e6] = 1; const c = structuredClone(a); return [c.length, Object.keys(c)]; });
t('class static self name', () => { class Reg { static items = []; static add(x) { Reg.items.push(x); } } Reg.add(1); return [Reg.name, new Reg().constructor.name, Reg.items]; });
t('class singleton name', () => { class Store { static instance; static get() { return Store.instance ??= new Store(); } } return [Store.get().constructor.name, Store.get() === Store.get()]; });
t('class static private name', () => { class Counter { static #count = 0; static inc() { return ++Counter.#count; } } return [Counter.name, Counter.inc(), Counter.inc()]; });
t('class fields', () => { class P { x = 1; #y = 2; static z = 3; get y() { return this.#y; } } const p = new P(); return [p.x, p.y, P.z, Object.keys(p)]; });
return out;
