// Timers and microtasks as Node 22 orders and checks them: a delay below
// 1 ms (0, negative, NaN, a string) is 1 ms, so timers of those delays run
// in the order they were set; a callback that is not a function is a
// TypeError with code ERR_INVALID_ARG_TYPE that names what it got.
const out = [];
const t = async (k, f) => { try { out.push([k, await f()]); } catch (e) { out.push([k, 'throws ' + e.name + ' ' + e.code + ': ' + e.message]); } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await t('0 after 1', async () => { const r = []; setTimeout(() => r.push('1'), 1); setTimeout(() => r.push('0'), 0); await sleep(10); return r; });
await t('below 1 in order', async () => {
  const r = [];
  for (const d of [1, 0, -5, NaN, 'x', undefined, null, 0.5, '1', true]) setTimeout(() => r.push(String(d)), d);
  await sleep(10);
  return r;
});
await t('2 after 1', async () => { const r = []; setTimeout(() => r.push('2'), 2); setTimeout(() => r.push('1'), 1); await sleep(10); return r; });
await t('microtasks before timers', async () => { const r = []; setTimeout(() => r.push('t'), 0); queueMicrotask(() => r.push('m')); Promise.resolve().then(() => r.push('p')); await sleep(5); return r; });
await t('interval', async () => { const r = []; let n = 0; const id = setInterval(() => { r.push(++n); if (n === 3) clearInterval(id); }, 0); await sleep(20); return r; });
await t('args', async () => { const r = []; setTimeout((a, b) => r.push(a + b), 0, 2, 3); await sleep(5); return r; });
await t('clear before run', async () => { const r = []; const id = setTimeout(() => r.push('no'), 0); clearTimeout(id); await sleep(5); return r; });
await t('caught inside the callback', async () => { const r = []; setTimeout(() => { try { throw new Error('in'); } catch (e) { r.push(e.message); } }, 0); await sleep(5); return r; });
for (const v of [5, 'x', 'a'.repeat(40), true, null, undefined, {}, [], 10n, new Map(), -0, NaN]) {
  await t('queueMicrotask ' + String(typeof v === 'bigint' ? v + 'n' : v), () => queueMicrotask(v));
  await t('setTimeout ' + String(typeof v === 'bigint' ? v + 'n' : v), () => setTimeout(v, 0));
  await t('setInterval ' + String(typeof v === 'bigint' ? v + 'n' : v), () => setInterval(v, 0));
}
await t('queueMicrotask returns', () => queueMicrotask(() => {}));
return out;
