// Array.fromAsync, which QuickJS lacks (a prelude polyfill): async and
// sync iterables, array-likes, promises among the values, a mapper and
// its this, a constructor this, and the errors, each awaited as Node 22
// does.
const out = [];
const t = async (k, f) => { try { out.push([k, await f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
async function* gen(n) { for (let i = 0; i < n; i++) yield i * 2; }
function* syncGen() { yield 1; yield Promise.resolve(2); yield 3; }
const order = [];
class Sub extends Array {}
await t('async generator', () => Array.fromAsync(gen(4)));
await t('sync generator with promises', () => Array.fromAsync(syncGen()));
await t('array of promises', () => Array.fromAsync([Promise.resolve('a'), 'b', Promise.resolve('c')]));
await t('array-like', () => Array.fromAsync({ length: 3, 0: 'x', 1: Promise.resolve('y'), 2: 'z' }));
await t('array-like length string', () => Array.fromAsync({ length: '2', 0: 1, 1: 2 }));
await t('array-like negative length', () => Array.fromAsync({ length: -1 }));
await t('string', () => Array.fromAsync('héllo'));
await t('set', () => Array.fromAsync(new Set([1, 2, 2, 3])));
await t('map entries', () => Array.fromAsync(new Map([[1, 'a'], [2, 'b']])));
await t('mapper', () => Array.fromAsync([1, 2, 3], (x, i) => x * 10 + i));
await t('async mapper', () => Array.fromAsync(gen(3), async (x) => x + 1));
await t('mapper this', () => Array.fromAsync([1], function (x) { return [this.k, x]; }, { k: 'K' }));
await t('mapper gets the awaited value', () => Array.fromAsync([Promise.resolve(5)], (x) => typeof x));
await t('async values are not awaited', async () => {
  async function* g() { yield Promise.resolve(1); }
  const r = await Array.fromAsync(g());
  return typeof r[0];
});
await t('order', async () => {
  await Array.fromAsync([1, 2], async (x) => { order.push('map' + x); await null; order.push('done' + x); return x; });
  return order;
});
await t('subclass', async () => { const r = await Sub.fromAsync([1, 2]); return [r instanceof Sub, r.length]; });
await t('non-constructor this', async () => { const r = await Array.fromAsync.call(undefined, [1]); return Array.isArray(r); });
await t('returns a promise', () => { const p = Array.fromAsync([]); return [p instanceof Promise, Array.fromAsync.length, Array.fromAsync.name]; });
await t('bad mapper', () => Array.fromAsync([1], 5));
await t('bad mapper rejects, not throws', () => { let threw = false; let p; try { p = Array.fromAsync([1], 5); } catch { threw = true; } p?.catch(() => {}); return threw; });
await t('null', () => Array.fromAsync(null));
await t('number', () => Array.fromAsync(5));
await t('rejecting element', () => Array.fromAsync([Promise.reject(new RangeError('no'))]));
await t('throwing mapper', () => Array.fromAsync([1], () => { throw new SyntaxError('m'); }));
await t('throwing iterator', () => Array.fromAsync({ [Symbol.iterator]() { return { next() { throw new EvalError('it'); } }; } }));
await t('empty', () => Array.fromAsync([]));
await t('holes', async () => { const r = await Array.fromAsync([1, , 3]); return [r.length, 1 in r, r[1]]; });
return out;
