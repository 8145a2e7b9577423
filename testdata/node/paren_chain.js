// A call of an optional chain in parentheses, (a?.b)(), keeps a as its
// this value (a?.b is a reference, as a.b is); QuickJS called it with
// undefined. A nullish base makes the call throw, and V8 names a chain in
// parentheses "(intermediate value)".
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
class K { #v = 5; #m() { return this.#v; } static call(k) { return (k?.#m)(); } }
const o = { v: 7, m() { return this === o ? this.v : 'lost'; }, p: { q() { return this === o.p; } }, a: [function () { return this === o.a; }] };
const n = null;
const tag = { t(s) { return [this === tag, s[0]]; } };
t('dot', () => (o?.m)());
t('bracket', () => (o?.['m'])());
t('index', () => (o?.a[0])());
t('nested parens', () => ((o?.m))());
t('deeper chain', () => (o?.p.q)());
t('two tests', () => (o?.p?.q)());
t('after a plain access', () => (o.p?.q)());
t('arguments', () => (o?.m)(1, 2, 3));
t('spread', () => (o?.m)(...[1, 2]));
t('template', () => (tag?.t)`x`);
t('optional call', () => (o?.m)?.());
t('optional call of a missing', () => (o?.nope)?.());
t('private', () => K.call(new K()));
t('comma drops this', () => (0, o?.m)());
t('conditional drops this', () => (true ? o?.m : 0)());
t('logical drops this', () => (o?.m || 0)());
t('call result', () => (o?.p.q()));
t('new', () => typeof new (o?.constructor)());
t('nullish base', () => (n?.m)());
t('nullish base optional call', () => (n?.m)?.());
t('missing method', () => (o?.nope)());
t('missing in brackets', () => (o?.['nope'])());
t('member of a chain in parens', () => (o?.p).nope());
t('index of a chain in parens', () => (o?.a)[1]());
t('missing constructor', () => new (o?.nope)());
t('result not a function', () => (o?.m())());
t('unparenthesized', () => o?.nope());
t('arguments evaluated before the throw', () => { let hit = 0; try { (n?.m)(hit++); } catch { /* ignore */ } return hit; });
t('in a loop', () => { let s = 0; for (let i = 0; i < 3; i++) s += (o?.m)(); return s; });
// Generated: chains of optional and plain accesses on present and
// nullish bases, in 0-2 parentheses, then a call, an optional call, a
// tagged template, .call or a further access (a seeded generator, so both
// engines see the same 3,000 expressions).
let seed = 12345;
const rnd = (m) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m; };
function who() { return function () { return this === g ? 'g' : this === g.p ? 'p' : this === g.a ? 'a' : this === undefined ? 'undef' : typeof this; }; }
const g = { m: who(), q: who(), self: null, p: { m: who(), q: who(), p: null }, a: [who()] };
g.self = g; g.p.p = g.p;
const bases = ['g', 'n', 'u', 'g.p', 'g.a'];
const steps = ['?.p', '.p', '?.["p"]', '["p"]', '?.m', '.m', '?.a[0]', '.a?.[0]', '?.q', '?.self', '.self', '?.m()', '.self?.m', '?.[k]'];
const ends = ['()', '?.()', '(1, 2)', '`x`', '.call(g)', '?.p', ''];
for (let i = 0; i < 3000; i++) {
  let e = bases[rnd(bases.length)];
  for (let j = 1 + rnd(3); j > 0; j--) e += steps[rnd(steps.length)];
  const w = rnd(3);
  for (let j = 0; j < w; j++) e = '(' + e + ')';
  let end = ends[rnd(ends.length)];
  if (end === '`x`' && w === 0) end = '()'; // an optional chain cannot be a tag
  e += end;
  if (rnd(4) === 0) e = '(' + e + ')()';
  t(i + ' ' + e, () => {
    const v = new Function('g', 'n', 'u', 'k', 'return ' + e)(g, null, undefined, 'm');
    return typeof v === 'function' ? 'function ' + v.name : v;
  });
}
return out;
