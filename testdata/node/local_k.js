// A function's first four arguments or locals plus or minus a small
// integer constant k (-1 to 7), and any value compared with such a
// constant before a conditional jump, which the engine runs as one fused
// instruction each: every operand type, each of the eight slots, the slow
// paths (valueOf, toString, BigInt, Symbol, NaN, null/undefined),
// exceptions thrown inside them, and jumps that land between the fused
// parts. Each fused form is checked against the same operation written
// through a variable (never fused), and the whole output against Node.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
// -0 and the type of a result are not visible in JSON: say them
const show = (v) => (Object.is(v, -0) ? '-0' : typeof v === 'bigint' ? v + 'n' : typeof v === 'number' ? v : typeof v + ' ' + String(v));

const vals = [0, -0, 1, -1, 2, -2, 5, 7, 8, 6.5, 2147483647, -2147483648, 2147483646, -2147483647, 0.5, -2.25, 1e300, 1e-300, NaN,
  Infinity, -Infinity, '5', '', 'x', ' 2 ', '0x3', true, false, null, undefined, 3n, -1n, 0n, [], [2], [1, 2], {},
  { valueOf: () => 10 }, { toString: () => '4' }];
const names = ['0', '-0', '1', '-1', '2', '-2', '5', '7', '8', '6.5', '2^31-1', '-2^31', '2^31-2', '-2^31+1', '0.5', '-2.25', '1e300', '1e-300', 'NaN',
  'Inf', '-Inf', "'5'", "''", "'x'", "' 2 '", "'0x3'", 'true', 'false', 'null', 'undefined', '3n', '-1n', '0n', '[]', '[2]', '[1,2]', '{}',
  '{valueOf 10}', '{toString 4}'];

// Each of the eight slots plus and minus a constant: arguments a...d,
// locals declared with var and with let. Written out, since the
// constant must be a literal next to the operator to be fused.
function args4(a, b, c, d) {
  return [a + 1, b - 1, c + 7, d - -1, a - 7, b + -1, c - 0, d + 0, a + 3, d - 5].map(show).join(' ');
}
function vars4(x) {
  var a = x, b = x, c = x, d = x;
  return [a + 1, b - 1, c + 7, d - -1, a - 7, b + -1, c - 0, d + 0, a + 3, d - 5].map(show).join(' ');
}
function lets4(x) {
  let a = x, b = x, c = x, d = x;
  return [a + 1, b - 1, c + 7, d - -1, a - 7, b + -1, c - 0, d + 0, a + 3, d - 5].map(show).join(' ');
}
// the same through a variable constant: never fused
function viaVar(x) {
  const ks = [['+', 1], ['-', 1], ['+', 7], ['-', -1], ['-', 7], ['+', -1], ['-', 0], ['+', 0], ['+', 3], ['-', 5]];
  return ks.map(([o, k]) => (o === '+' ? x + k : x - k)).map(show).join(' ');
}
for (let i = 0; i < vals.length; i++) {
  const v = vals[i];
  t(names[i] + ' slot ± k', () => {
    const a = args4(v, v, v, v), b = vars4(v), c = lets4(v), d = viaVar(v);
    return a === b && b === c && c === d ? a : ['differ', a, b, c, d];
  });
}
t('each argument', () => ((a, b, c, d) => [a + 1, b + 1, c + 1, d + 1, a - 2, b - 3, c - 4, d - 5])(10, 20, 30, 40));
t('each var', () => { var a = 10, b = 20, c = 30, d = 40; return [a + 1, b + 1, c + 1, d + 1, a - 2, b - 3, c - 4, d - 5]; });
t('each let', () => { let a = 10, b = 20, c = 30, d = 40; return [a + 1, b + 1, c + 1, d + 1, a - 2, b - 3, c - 4, d - 5]; });
t('let in its dead zone', () => { let r; try { r = b - 1; } catch (e) { r = e.name; } let b = 2; return [r, b - 1]; });
t('const in its dead zone', () => { let r; try { r = c + 7; } catch (e) { r = e.name; } const c = 2; return [r, c + 7]; });
t('arguments and locals', () => ((a, b) => { var c = 3, d = 4; return [a - 1, c - 1, b + 1, d + 1]; })(1, 2));

// Comparisons with each constant -1...7, the eight operators, in an if
// (if_false), a negated if (if_true) and a conditional expression; and the
// same through a variable constant as a value (never fused).
function ifK(x) {
  let r = '';
  if (x < -1) r += '1'; else r += '0'; if (x < 0) r += '1'; else r += '0'; if (x < 1) r += '1'; else r += '0'; if (x < 2) r += '1'; else r += '0'; if (x < 3) r += '1'; else r += '0'; if (x < 4) r += '1'; else r += '0'; if (x < 5) r += '1'; else r += '0'; if (x < 6) r += '1'; else r += '0'; if (x < 7) r += '1'; else r += '0';
  if (x <= -1) r += '1'; else r += '0'; if (x <= 0) r += '1'; else r += '0'; if (x <= 1) r += '1'; else r += '0'; if (x <= 2) r += '1'; else r += '0'; if (x <= 3) r += '1'; else r += '0'; if (x <= 4) r += '1'; else r += '0'; if (x <= 5) r += '1'; else r += '0'; if (x <= 6) r += '1'; else r += '0'; if (x <= 7) r += '1'; else r += '0';
  if (x > -1) r += '1'; else r += '0'; if (x > 0) r += '1'; else r += '0'; if (x > 1) r += '1'; else r += '0'; if (x > 2) r += '1'; else r += '0'; if (x > 3) r += '1'; else r += '0'; if (x > 4) r += '1'; else r += '0'; if (x > 5) r += '1'; else r += '0'; if (x > 6) r += '1'; else r += '0'; if (x > 7) r += '1'; else r += '0';
  if (x >= -1) r += '1'; else r += '0'; if (x >= 0) r += '1'; else r += '0'; if (x >= 1) r += '1'; else r += '0'; if (x >= 2) r += '1'; else r += '0'; if (x >= 3) r += '1'; else r += '0'; if (x >= 4) r += '1'; else r += '0'; if (x >= 5) r += '1'; else r += '0'; if (x >= 6) r += '1'; else r += '0'; if (x >= 7) r += '1'; else r += '0';
  if (x == -1) r += '1'; else r += '0'; if (x == 0) r += '1'; else r += '0'; if (x == 1) r += '1'; else r += '0'; if (x == 2) r += '1'; else r += '0'; if (x == 3) r += '1'; else r += '0'; if (x == 4) r += '1'; else r += '0'; if (x == 5) r += '1'; else r += '0'; if (x == 6) r += '1'; else r += '0'; if (x == 7) r += '1'; else r += '0';
  if (x != -1) r += '1'; else r += '0'; if (x != 0) r += '1'; else r += '0'; if (x != 1) r += '1'; else r += '0'; if (x != 2) r += '1'; else r += '0'; if (x != 3) r += '1'; else r += '0'; if (x != 4) r += '1'; else r += '0'; if (x != 5) r += '1'; else r += '0'; if (x != 6) r += '1'; else r += '0'; if (x != 7) r += '1'; else r += '0';
  if (x === -1) r += '1'; else r += '0'; if (x === 0) r += '1'; else r += '0'; if (x === 1) r += '1'; else r += '0'; if (x === 2) r += '1'; else r += '0'; if (x === 3) r += '1'; else r += '0'; if (x === 4) r += '1'; else r += '0'; if (x === 5) r += '1'; else r += '0'; if (x === 6) r += '1'; else r += '0'; if (x === 7) r += '1'; else r += '0';
  if (x !== -1) r += '1'; else r += '0'; if (x !== 0) r += '1'; else r += '0'; if (x !== 1) r += '1'; else r += '0'; if (x !== 2) r += '1'; else r += '0'; if (x !== 3) r += '1'; else r += '0'; if (x !== 4) r += '1'; else r += '0'; if (x !== 5) r += '1'; else r += '0'; if (x !== 6) r += '1'; else r += '0'; if (x !== 7) r += '1'; else r += '0';
  return r;
}
function notK(x) {
  let r = '';
  if (!(x < -1)) r += '0'; else r += '1'; if (!(x < 0)) r += '0'; else r += '1'; if (!(x < 1)) r += '0'; else r += '1'; if (!(x < 2)) r += '0'; else r += '1'; if (!(x < 3)) r += '0'; else r += '1'; if (!(x < 4)) r += '0'; else r += '1'; if (!(x < 5)) r += '0'; else r += '1'; if (!(x < 6)) r += '0'; else r += '1'; if (!(x < 7)) r += '0'; else r += '1';
  if (!(x <= -1)) r += '0'; else r += '1'; if (!(x <= 0)) r += '0'; else r += '1'; if (!(x <= 1)) r += '0'; else r += '1'; if (!(x <= 2)) r += '0'; else r += '1'; if (!(x <= 3)) r += '0'; else r += '1'; if (!(x <= 4)) r += '0'; else r += '1'; if (!(x <= 5)) r += '0'; else r += '1'; if (!(x <= 6)) r += '0'; else r += '1'; if (!(x <= 7)) r += '0'; else r += '1';
  if (!(x > -1)) r += '0'; else r += '1'; if (!(x > 0)) r += '0'; else r += '1'; if (!(x > 1)) r += '0'; else r += '1'; if (!(x > 2)) r += '0'; else r += '1'; if (!(x > 3)) r += '0'; else r += '1'; if (!(x > 4)) r += '0'; else r += '1'; if (!(x > 5)) r += '0'; else r += '1'; if (!(x > 6)) r += '0'; else r += '1'; if (!(x > 7)) r += '0'; else r += '1';
  if (!(x >= -1)) r += '0'; else r += '1'; if (!(x >= 0)) r += '0'; else r += '1'; if (!(x >= 1)) r += '0'; else r += '1'; if (!(x >= 2)) r += '0'; else r += '1'; if (!(x >= 3)) r += '0'; else r += '1'; if (!(x >= 4)) r += '0'; else r += '1'; if (!(x >= 5)) r += '0'; else r += '1'; if (!(x >= 6)) r += '0'; else r += '1'; if (!(x >= 7)) r += '0'; else r += '1';
  if (!(x == -1)) r += '0'; else r += '1'; if (!(x == 0)) r += '0'; else r += '1'; if (!(x == 1)) r += '0'; else r += '1'; if (!(x == 2)) r += '0'; else r += '1'; if (!(x == 3)) r += '0'; else r += '1'; if (!(x == 4)) r += '0'; else r += '1'; if (!(x == 5)) r += '0'; else r += '1'; if (!(x == 6)) r += '0'; else r += '1'; if (!(x == 7)) r += '0'; else r += '1';
  if (!(x != -1)) r += '0'; else r += '1'; if (!(x != 0)) r += '0'; else r += '1'; if (!(x != 1)) r += '0'; else r += '1'; if (!(x != 2)) r += '0'; else r += '1'; if (!(x != 3)) r += '0'; else r += '1'; if (!(x != 4)) r += '0'; else r += '1'; if (!(x != 5)) r += '0'; else r += '1'; if (!(x != 6)) r += '0'; else r += '1'; if (!(x != 7)) r += '0'; else r += '1';
  if (!(x === -1)) r += '0'; else r += '1'; if (!(x === 0)) r += '0'; else r += '1'; if (!(x === 1)) r += '0'; else r += '1'; if (!(x === 2)) r += '0'; else r += '1'; if (!(x === 3)) r += '0'; else r += '1'; if (!(x === 4)) r += '0'; else r += '1'; if (!(x === 5)) r += '0'; else r += '1'; if (!(x === 6)) r += '0'; else r += '1'; if (!(x === 7)) r += '0'; else r += '1';
  if (!(x !== -1)) r += '0'; else r += '1'; if (!(x !== 0)) r += '0'; else r += '1'; if (!(x !== 1)) r += '0'; else r += '1'; if (!(x !== 2)) r += '0'; else r += '1'; if (!(x !== 3)) r += '0'; else r += '1'; if (!(x !== 4)) r += '0'; else r += '1'; if (!(x !== 5)) r += '0'; else r += '1'; if (!(x !== 6)) r += '0'; else r += '1'; if (!(x !== 7)) r += '0'; else r += '1';
  return r;
}
function ternK(x) {
  let r = '';
  r += x < -1 ? '1' : '0'; r += x < 0 ? '1' : '0'; r += x < 1 ? '1' : '0'; r += x < 2 ? '1' : '0'; r += x < 3 ? '1' : '0'; r += x < 4 ? '1' : '0'; r += x < 5 ? '1' : '0'; r += x < 6 ? '1' : '0'; r += x < 7 ? '1' : '0';
  r += x <= -1 ? '1' : '0'; r += x <= 0 ? '1' : '0'; r += x <= 1 ? '1' : '0'; r += x <= 2 ? '1' : '0'; r += x <= 3 ? '1' : '0'; r += x <= 4 ? '1' : '0'; r += x <= 5 ? '1' : '0'; r += x <= 6 ? '1' : '0'; r += x <= 7 ? '1' : '0';
  r += x > -1 ? '1' : '0'; r += x > 0 ? '1' : '0'; r += x > 1 ? '1' : '0'; r += x > 2 ? '1' : '0'; r += x > 3 ? '1' : '0'; r += x > 4 ? '1' : '0'; r += x > 5 ? '1' : '0'; r += x > 6 ? '1' : '0'; r += x > 7 ? '1' : '0';
  r += x >= -1 ? '1' : '0'; r += x >= 0 ? '1' : '0'; r += x >= 1 ? '1' : '0'; r += x >= 2 ? '1' : '0'; r += x >= 3 ? '1' : '0'; r += x >= 4 ? '1' : '0'; r += x >= 5 ? '1' : '0'; r += x >= 6 ? '1' : '0'; r += x >= 7 ? '1' : '0';
  r += x == -1 ? '1' : '0'; r += x == 0 ? '1' : '0'; r += x == 1 ? '1' : '0'; r += x == 2 ? '1' : '0'; r += x == 3 ? '1' : '0'; r += x == 4 ? '1' : '0'; r += x == 5 ? '1' : '0'; r += x == 6 ? '1' : '0'; r += x == 7 ? '1' : '0';
  r += x != -1 ? '1' : '0'; r += x != 0 ? '1' : '0'; r += x != 1 ? '1' : '0'; r += x != 2 ? '1' : '0'; r += x != 3 ? '1' : '0'; r += x != 4 ? '1' : '0'; r += x != 5 ? '1' : '0'; r += x != 6 ? '1' : '0'; r += x != 7 ? '1' : '0';
  r += x === -1 ? '1' : '0'; r += x === 0 ? '1' : '0'; r += x === 1 ? '1' : '0'; r += x === 2 ? '1' : '0'; r += x === 3 ? '1' : '0'; r += x === 4 ? '1' : '0'; r += x === 5 ? '1' : '0'; r += x === 6 ? '1' : '0'; r += x === 7 ? '1' : '0';
  r += x !== -1 ? '1' : '0'; r += x !== 0 ? '1' : '0'; r += x !== 1 ? '1' : '0'; r += x !== 2 ? '1' : '0'; r += x !== 3 ? '1' : '0'; r += x !== 4 ? '1' : '0'; r += x !== 5 ? '1' : '0'; r += x !== 6 ? '1' : '0'; r += x !== 7 ? '1' : '0';
  return r;
}
function viaVarCmp(x) {
  let r = '';
  const ops = [(a, k) => a < k, (a, k) => a <= k, (a, k) => a > k, (a, k) => a >= k, (a, k) => a == k, (a, k) => a != k,
    (a, k) => a === k, (a, k) => a !== k];
  for (const op of ops) for (let k = -1; k <= 7; k++) r += op(x, k) ? '1' : '0';
  return r;
}
for (let i = 0; i < vals.length; i++) {
  const v = vals[i];
  t(names[i] + ' cmp k', () => {
    const a = ifK(v), b = notK(v), c = ternK(v), d = viaVarCmp(v);
    return a === b && b === c && c === d ? a : ['differ', a, b, c, d];
  });
}
t('symbol < 1', () => Symbol('s') < 1);
t('symbol === 1', () => Symbol('s') === 1);
t('symbol + 1 in a slot', () => { const s = Symbol('s'); return s + 1; });
t('valueOf order, compare', () => {
  const log = [];
  const o = { valueOf() { log.push('v'); return 2; } };
  if (o < 3) log.push('lt'); else log.push('ge');
  if (o === 2) log.push('same'); else log.push('other');
  if (o == 2) log.push('eq'); else log.push('ne');
  return log;
});
t('valueOf order, slot', () => { const log = []; const o = { valueOf() { log.push('v'); return 2; } }; const r = o - 1; log.push(r); return log; });
t('valueOf throws, compare', () => { const o = { valueOf() { throw new RangeError('nope'); } }; if (o < 1) return 'lt'; return 'ge'; });
t('valueOf throws, slot', () => { const o = { valueOf() { throw new RangeError('nope'); } }; return o - 1; });
t('throw caught in loop', () => {
  const r = [];
  for (let i = 0; i < 3; i++) {
    const o = { valueOf() { if (i === 1) throw new Error('x'); return i; } };
    try { r.push(o > 0 ? 'gt' : 'le', o + 1); } catch (e) { r.push('caught'); }
  }
  return r;
});

// Jumps that land between the fused parts: the comparison reached from a
// conditional whose arms push different constants must not be fused with
// either; an operator reached by a jump still adds its own constant, with
// the local fused before it on the other path.
t('jump to comparison', () => [0, 1, 2, 3, 4].map((x) => (x < (x & 1 ? 1 : 3) ? 'lt' : 'ge')));
t('jump to comparison strict', () => [0, 1, 2].map((x) => (x === (x ? 2 : 0) ? 'same' : 'other')));
t('jump to operator, locals', () => [true, false].map((c) => { var a = 10, b = 20; return (c ? b : a) - 1; }));
t('jump to operator, arguments', () => [true, false].map((c) => ((p, q) => (c ? q : p) + 7)(100, 200)));
t('jump to operator, let', () => [0, 1, 2].map((c) => { let a = 1, b = 2, d = 3; return (c === 0 ? a : c === 1 ? b : d) - 2; }));
t('logical then constant', () => [0, 5].map((v) => { var w = v; return (w || 4) - 1; }));

// Loops: conditions on a counter against a constant, short (8-bit) and
// long (32-bit) jumps, counting down through a fused decrement.
t('countdown', () => { let n = 7, s = 0; while (n > 0) { s += n; n = n - 1; } return s; });
t('do while', () => { let n = -1, s = ''; do { s += n; n = n + 1; } while (n !== 7); return s; });
t('for <=', () => { let s = 0; for (let i = -1; i <= 7; i = i + 1) s += i; return s; });
t('long body', () => {
  let n = 5, s = 0;
  while (n >= 0) {
    s += n * 3; s -= n; s += n % 2; s += Math.max(n, 1); s += String(n).length; s += [n].length; s ^= 1; s += n > 2 ? 1 : 2;
    s += Math.min(n, 4); s += (n << 1) >> 1; s += Number.isInteger(n) ? 1 : 0; s += typeof n === 'number' ? 2 : 3; s += ~~n;
    n = n - 1;
  }
  return s;
});
t('float counter', () => { let x = 0.5, c = 0; while (x < 7) { x = x + 1; c = c + 1; } return [x, c]; });
t('overflow past int32', () => { let x = 2147483645; const r = []; for (let i = 0; i < 3; i++) { x = x + 2; r.push(x, x > 7, x === 2147483647); } return r; });
t('recursion', () => { function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } return fib(20); });
t('in generator', () => { function* g(n) { while (n > 0) { yield n - 1; n = n - 2; } } return [...g(7)]; });
t('in async', () => { async function f(n) { return n === 0 ? 'zero' : n - 1; } return typeof f(1); });
t('in try finally', () => { let x = 1; try { if (x < 2) x = x + 1; } finally { if (x !== 2) x = 0; } return x; });
t('arguments object', () => { function f(a) { arguments[0] = 5; return [a + 1, a < 6]; } return f(1); });
t('closure over slot', () => { function f(a) { const g = () => a; a = a + 2; return [g(), a - 1, a > 2]; } return f(1); });
return out;
