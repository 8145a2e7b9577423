// x + k and x - k with a small integer constant k (-1 to 7), which the
// engine runs as one fused instruction unless something jumps between the
// constant and the operator: every operand type, the int32 edges, -0,
// strings, BigInt, objects, and jumps that land on the operator.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
// -0 and the type of the result are not visible in JSON: say them
const show = (v) => (Object.is(v, -0) ? '-0' : typeof v === 'bigint' ? v + 'n' : typeof v === 'number' ? v : typeof v + ' ' + String(v));

const vals = [0, -0, 1, -1, 5, 2147483647, -2147483648, 2147483646, -2147483647, 0.5, -2.25, 1e300, NaN, Infinity, -Infinity,
  '5', '', 'x', ' 7 ', true, false, null, undefined, 3n, [], [2], {}, { valueOf: () => 10 }, { toString: () => '4' }];
const names = ['0', '-0', '1', '-1', '5', '2^31-1', '-2^31', '2^31-2', '-2^31+1', '0.5', '-2.25', '1e300', 'NaN', 'Inf', '-Inf',
  "'5'", "''", "'x'", "' 7 '", 'true', 'false', 'null', 'undefined', '3n', '[]', '[2]', '{}', '{valueOf 10}', '{toString 4}'];

// each constant from -1 to 7, added and subtracted, written out: the
// constant must be a literal next to the operator to be fused
function plus(x) {
  return [x + -1, x + 0, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7].map(show).join(' ');
}
function minus(x) {
  return [x - -1, x - 0, x - 1, x - 2, x - 3, x - 4, x - 5, x - 6, x - 7].map(show).join(' ');
}
// the same through variables: never fused
function plusVar(x) {
  const r = [];
  for (let k = -1; k <= 7; k++) r.push(show(x + k));
  return r.join(' ');
}
function minusVar(x) {
  const r = [];
  for (let k = -1; k <= 7; k++) r.push(show(x - k));
  return r.join(' ');
}
for (let i = 0; i < vals.length; i++) {
  t(names[i] + ' + k', () => { const a = plus(vals[i]), b = plusVar(vals[i]); return a === b ? a : ['differ', a, b]; });
  t(names[i] + ' - k', () => { const a = minus(vals[i]), b = minusVar(vals[i]); return a === b ? a : ['differ', a, b]; });
}
t('date - 1', () => new Date(1000) - 1);
t('date + 1 is a string', () => typeof (new Date(1000) + 1));
t('symbol + 1', () => Symbol('s') + 1);
t('symbol - 1', () => Symbol('s') - 1);
t('bigint + 1', () => 3n + 1);
t('bigint - 1', () => 3n - 1);

// the operator reached by a jump, so the constant before it is not the
// one it adds (a ?: whose last arm pushes a constant)
t('jump to operator', () => [0, 1, 2].map((c) => 10 - (c === 0 ? 1 : c === 1 ? 2 : 3)));
t('jump to operator add', () => [true, false].map((c) => 10 + (c ? 1 : 2)));
t('jump to operator strings', () => [true, false].map((c) => 'a' + (c ? 1 : 2)));
t('logical to operator', () => [0, 1, 5].map((v) => 10 - (v || 3)));
t('nullish to operator', () => [null, 0, 4].map((v) => 10 + (v ?? 6)));
t('ternary before', () => [true, false].map((c) => (c ? 100 : 200) - 1));
t('side effects order', () => { const log = []; const o = { valueOf() { log.push('v'); return 2; } }; const r = o - 1; log.push(r); return log; });
t('valueOf throws', () => { const o = { valueOf() { throw new RangeError('nope'); } }; return o + 1; });
t('recursion', () => { function f(n) { return n < 2 ? n : f(n - 1) + f(n - 2); } return f(15); });
t('countdown', () => { let n = 10, s = 0; while (n > 0) { s += n; n = n - 1; } return s; });
t('overflow loop', () => { let x = 2147483640; const r = []; for (let i = 0; i < 4; i++) { x = x + 3; r.push(x); } return r; });
t('underflow loop', () => { let x = -2147483640; const r = []; for (let i = 0; i < 4; i++) { x = x - 3; r.push(x); } return r; });
t('index arithmetic', () => { const a = [10, 20, 30, 40]; const r = []; for (let i = 1; i < a.length; i++) r.push(a[i - 1] + a[i] + 1); return r; });
t('string building', () => { let s = ''; for (let i = 0; i < 5; i++) s = s + 1; return s; });
t('in generator', () => { function* g(n) { while (n > 0) { yield n - 1; n = n - 2; } } return [...g(7)]; });
t('in try finally', () => { let x = 1; try { x = x + 1; } finally { x = x + 2; } return x; });
t('in switch', () => [1, 2, 3].map((v) => { switch (v - 1) { case 0: return 'a'; case 1: return 'b'; default: return 'c'; } }));
t('default parameter', () => { const f = (a, b = a + 1) => b - 2; return [f(1), f(1, 10)]; });
t('template', () => [1, 2].map((v) => `${v + 1}-${v - 1}`));
t('compound', () => { let a = 5; a += 1; a -= 2; const b = a + 7; return [a, b, b - 7]; });
return out;
