// "x is not a function" names the call that failed when a for loop's
// update holds many calls: resolve_labels moves the update's code and
// shrinks jumps before it, and the call sites' names now move with their
// calls (they had named a neighbouring call, or nothing). new a?.b is a
// syntax error, as in V8. A seeded generator, so both engines see the
// same 1,200 loops.
const o = { m() { return 5; }, f() { return this === o ? 1 : 0; }, p: { q() { return 7; } } };
const kf = () => 'm';
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, e.name + ': ' + e.message]); } };
let seed = 99;
const rnd = (m) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m; };
const good = ['x += 1', 'x = [x, x, x].length', 'x = `${x}${x}`.length', '(o?.f)()', 'x = (o?.f)() + x', '(o?.p?.q)()', 'o.m()', 'x = o.p.q() + x'];
const bad = ['o.zz()', 'o.p.zz()', 'o.m()()', 'o.p.q()()', 'kf()()', '(o?.zz)()', 'o.a?.[0]()', '(o.p?.zz)()'];
const body = ['', 'x += 1', '(o?.f)()', 'x = [x, x, x].length', '(o?.p?.q)(); x += 1'];
for (let i = 0; i < 1200; i++) {
  const upd = [];
  const n = 1 + rnd(10);
  const at = rnd(n);
  for (let j = 0; j < n; j++) upd.push(j === at ? bad[rnd(bad.length)] : good[rnd(good.length)]);
  const src = `let x = 0; for (let i = 0; i < 2; ${upd.join(', ')}, i++) { ${body[rnd(body.length)]} } return x;`;
  t(i + ' ' + upd[at], () => new Function('o', 'kf', src)(o, kf));
}
for (const s of ['new o?.m()', 'new o?.m', 'new o.p?.q()', 'new (o?.m)()', 'new (o?.p).q()']) {
  t(s, () => { try { new Function('o', 'return typeof ' + s)(o); return 'compiles'; } catch (e) { return e.name; } });
}
return out;
