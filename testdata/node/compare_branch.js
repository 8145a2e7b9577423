// Comparisons followed by a conditional jump, which the engine runs as one
// fused instruction (<, <=, >, >=, ==, !=, ===, !== with if_false/if_true,
// short and long jumps): every operand type, the slow paths (valueOf,
// toString, BigInt, NaN, null/undefined), exceptions thrown from inside
// the comparison, and jumps that land on the conditional jump itself.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
// the error's name only: QuickJS words some TypeErrors (a Symbol made a
// number) unlike V8, which is not what these cases are about
const tn = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };

const vals = [0, 1, -1, 2, 0.5, -0, NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31), 2 ** 53, '1', '01', '', 'a', 'b', ' 1 ', '0x10',
  true, false, null, undefined, 1n, 2n, -1n, 10n ** 20n, [], [1], [1, 2], {}, { valueOf: () => 1 }, { toString: () => '2' },
  new Date(5), Symbol.iterator];
const names = ['0', '1', '-1', '2', '0.5', '-0', 'NaN', 'Inf', '-Inf', '2^31', '-2^31', '2^53', "'1'", "'01'", "''", "'a'", "'b'", "' 1 '", "'0x10'",
  'true', 'false', 'null', 'undefined', '1n', '2n', '-1n', '10n^20', '[]', '[1]', '[1,2]', '{}', '{valueOf 1}', '{toString 2}',
  'Date(5)', 'Symbol'];

// Each comparison in an if (if_false), in a negated if (if_true), in a
// while condition and as a value (not fused): all four must agree.
function ifs(a, b) {
  let r = '';
  if (a < b) r += 'lt '; else r += '!lt ';
  if (a <= b) r += 'le '; else r += '!le ';
  if (a > b) r += 'gt '; else r += '!gt ';
  if (a >= b) r += 'ge '; else r += '!ge ';
  if (a == b) r += 'eq '; else r += '!eq ';
  if (a != b) r += 'ne '; else r += '!ne ';
  if (a === b) r += 'seq '; else r += '!seq ';
  if (a !== b) r += 'sne'; else r += '!sne';
  return r;
}
function nots(a, b) {
  let r = '';
  if (!(a < b)) r += '!lt '; else r += 'lt ';
  if (!(a <= b)) r += '!le '; else r += 'le ';
  if (!(a > b)) r += '!gt '; else r += 'gt ';
  if (!(a >= b)) r += '!ge '; else r += 'ge ';
  if (!(a == b)) r += '!eq '; else r += 'eq ';
  if (!(a != b)) r += '!ne '; else r += 'ne ';
  if (!(a === b)) r += '!seq '; else r += 'seq ';
  if (!(a !== b)) r += '!sne'; else r += 'sne';
  return r;
}
function values(a, b) {
  return [a < b, a <= b, a > b, a >= b, a == b, a != b, a === b, a !== b].map((v, i) => (v ? '' : '!') + ['lt', 'le', 'gt', 'ge', 'eq', 'ne', 'seq', 'sne'][i]).join(' ');
}
for (let i = 0; i < vals.length; i++) {
  for (let j = 0; j < vals.length; j++) {
    tn(names[i] + ' ? ' + names[j], () => {
      const a = ifs(vals[i], vals[j]), b = nots(vals[i], vals[j]), c = values(vals[i], vals[j]);
      return a === b && b === c ? a : ['differ', a, b, c];
    });
  }
}

// Loops: the condition's jump back or out, with short bodies (8-bit
// jumps) and a long one (32-bit jumps).
t('for <', () => { let s = 0; for (let i = 0; i < 100; i++) s += i; return s; });
t('for <=', () => { let s = 0; for (let i = 0; i <= 100; i++) s += i; return s; });
t('for > down', () => { let s = 0; for (let i = 100; i > 0; i--) s += i; return s; });
t('for >= down', () => { let s = 0; for (let i = 100; i >= 0; i--) s += i; return s; });
t('for !== ', () => { let s = 0; for (let i = 0; i !== 50; i++) s += i; return s; });
t('for != ', () => { let s = 0; for (let i = 0; i != 50; i++) s += i; return s; });
t('while ==', () => { let i = 0, s = 0; while (i == 0 || s < 10) { s += 3; i = 1; } return [i, s]; });
t('do while <', () => { let i = 0; do { i += 7; } while (i < 100); return i; });
t('do while ===', () => { let i = 0, n = 0; do { n++; i = (i + 3) % 10; } while (i === 3 || n < 5); return [i, n]; });
t('float loop', () => { let s = 0; for (let x = 0.1; x < 3.3; x += 0.2) s++; return s; });
t('string loop', () => { let s = ''; for (let c = 'a'; c < 'aaaa'; c += 'a') s += c.length; return s; });
t('bigint loop', () => { let s = 0n; for (let i = 0n; i < 20n; i++) s += i; return String(s); });
t('mixed loop', () => { let n = 0; for (let i = 0; i < 10n; i++) n++; return n; });
t('long body', () => {
  let s = 0;
  for (let i = 0; i < 30; i++) {
    if (i === 3) { s += 1; s *= 2; s -= 1; s += 'x'.length; s += Math.max(1, 2, 3); s += [1, 2, 3].length; s += ('abc' + i).length; }
    if (i !== 4) { s += 2; s *= 1; s -= 0; s += 'yy'.length; s += Math.min(4, 5, 6); s += [1, 2].length; s += ('de' + i).length; }
    if (i > 10) { s += 3; s += 'zzz'.length; s += Math.abs(-7); s += [1].length; s += ('f' + i).length; s += String(i).length; }
    if (i <= 20) { s += 4; s += 'wwww'.length; s += Math.round(7.5); s += [].length; s += ('gh' + i).length; s += String(-i).length; }
  }
  return s;
});
t('long else', () => {
  const r = [];
  for (let i = 0; i < 4; i++) {
    if (i < 2) {
      r.push('a' + i); r.push('b' + i); r.push('c' + i); r.push('d' + i); r.push('e' + i); r.push('f' + i);
      r.push('g' + i); r.push('h' + i); r.push('i' + i); r.push('j' + i); r.push('k' + i); r.push('l' + i);
    } else {
      r.push('z' + i);
    }
  }
  return r.join();
});

// Conditions that combine: && and || make jumps that land on another
// conditional jump; ?: and nested ifs.
t('and chain', () => { const r = []; for (let i = 0; i < 12; i++) if (i > 2 && i < 9 && i !== 5) r.push(i); return r; });
t('or chain', () => { const r = []; for (let i = 0; i < 12; i++) if (i < 2 || i > 9 || i === 5) r.push(i); return r; });
t('mixed chain', () => { const r = []; for (let i = 0; i < 12; i++) if ((i > 2 && i < 5) || (i >= 8 && i != 10)) r.push(i); return r; });
t('ternary', () => [0, 1, 2, 3].map((i) => (i < 2 ? (i === 0 ? 'zero' : 'one') : i >= 3 ? 'three' : 'two')));
t('not not', () => [0, 1, 2].map((i) => (!!(i < 1) ? 'y' : 'n')));
t('compare as value', () => { const r = []; for (let i = 0; i < 4; i++) { const b = i < 2; r.push(b, typeof b); } return r; });
t('compare in condition of return', () => { const f = (a, b) => { if (a < b) return -1; if (a > b) return 1; return 0; }; return [f(1, 2), f(2, 1), f(1, 1), f('a', 'b'), f(NaN, 1)]; });
t('switch', () => { const r = []; for (const v of [1, 2, 3, '1', 4]) { switch (v) { case 1: r.push('one'); break; case 2: case 3: r.push('two-three'); break; default: r.push('other'); } } return r; });
t('fib', () => { function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } return fib(20); });
t('sort comparator', () => [5, 3, 9, 1, 7].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

// The slow path: valueOf and toString run, in order, once each, and what
// they throw comes out of the comparison with its stack.
t('valueOf order', () => {
  const log = [];
  const a = { valueOf() { log.push('a'); return 1; } }, b = { valueOf() { log.push('b'); return 2; } };
  if (a < b) log.push('lt'); if (a > b) log.push('gt'); if (a <= b) log.push('le'); if (a >= b) log.push('ge');
  if (a == b) log.push('eq'); if (a != b) log.push('ne');
  return log.join();
});
t('valueOf throws in if', () => { const o = { valueOf() { throw new RangeError('no value'); } }; if (o < 1) return 'lt'; return 'not'; });
t('valueOf throws in loop', () => { let n = 0; const o = { valueOf() { if (++n > 3) throw new Error('stop at ' + n); return 10; } }; for (let i = 0; i < o; i++); return n; });
t('throw caught', () => { const o = { valueOf() { throw 'x'; } }; try { if (o >= 0) return 'ge'; return 'not'; } catch (e) { return 'caught ' + e; } });
t('throw line', () => {
  const o = { valueOf() { throw new Error('here'); } };
  try {
    if (1 < 2 && o < 3) return 'no';
  } catch (e) {
    return e.message + ' ' + (typeof e.stack);
  }
  return 'none';
});
tn('symbol throws', () => { const s = Symbol('q'); if (s < 1) return 'lt'; return 'not'; });
t('bigint with string', () => { const r = []; if (1n < '2') r.push('a'); if (2n == '2') r.push('b'); if (3n > 'x') r.push('c'); if (3n <= 'x') r.push('d'); return r; });
t('null undefined', () => { const r = []; if (null == undefined) r.push('eq'); if (null === undefined) r.push('seq'); if (null >= 0) r.push('ge'); if (undefined >= 0) r.push('uge'); if (null < 1) r.push('lt'); return r; });
t('getter side effects', () => {
  let n = 0;
  const o = { get v() { n++; return n; } };
  const r = [];
  while (o.v < 5) r.push(n);
  return r;
});
t('generator condition', () => { function* g() { let i = 0; while (i < 3) yield i++; } return [...g()]; });
return out;
