// Labelled statements that each break out of themselves, one after the
// other in a loop: the jumps they compile to chain into each other and,
// with nothing else in the loop, into a cycle. Such a loop never ends, so
// those programs are compiled and not run; the others run, with an exit
// or a statement between the labels that breaks the chain.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const compiles = (src) => typeof new Function(src);

const labels = (n, name) => Array.from({ length: n }, (_, i) => `${name(i)}: break ${name(i)};`).join(' ');
const same = () => 'l';
const distinct = (i) => 'l' + i;
const heads = [
  ['for(;;)', (b) => `for (;;) { ${b} }`],
  ['while(true)', (b) => `while (true) { ${b} }`],
  ['do-while', (b) => `do { ${b} } while (true);`],
  ['for with update', (b) => `for (let i = 0; ; i++) { ${b} }`],
  ['nested loop', (b) => `for (;;) { for (;;) { ${b} } }`],
  ['labelled loop', (b) => `outer: for (;;) { ${b} continue outer; }`],
  ['block label', (b) => `for (;;) { blk: { ${b} break blk; } }`],
  ['in try', (b) => `try { for (;;) { ${b} } } finally { }`],
  ['in switch', (b) => `switch (1) { case 1: for (;;) { ${b} } }`],
];
for (const [hname, head] of heads) {
  for (const n of [1, 2, 3, 4, 5, 8, 11, 12, 20]) {
    t(`${hname}, ${n} same labels`, () => compiles(head(labels(n, same))));
    t(`${hname}, ${n} distinct labels`, () => compiles(head(labels(n, distinct))));
  }
}
// in an async function, a generator and an arrow
for (const n of [3, 12]) {
  const b = `for (;;) { ${labels(n, same)} }`;
  t(`async function, ${n}`, () => typeof new Function(`return async function () { ${b} };`)());
  t(`generator, ${n}`, () => typeof new Function(`return function* () { ${b} };`)());
  t(`arrow, ${n}`, () => typeof new Function(`return () => { ${b} };`)());
}

// These run: an exit or a statement between the labels.
for (const n of [1, 3, 12]) {
  t(`exit after ${n}`, () => new Function(`let c = 0; for (;;) { ${labels(n, same)} if (++c > 4) break; } return c;`)());
  t(`counted between ${n}`, () => new Function(
    `let c = 0; for (let i = 0; i < 3; i++) { ${Array.from({ length: n }, () => 'l: break l; c++;').join(' ')} } return c;`)());
  t(`continue after ${n}`, () => new Function(
    `let c = 0, i = 0; while (i < 5) { i++; ${labels(n, distinct)} if (i % 2) continue; c += i; } return [c, i];`)());
  t(`throw after ${n}`, () => new Function(`let c = 0; try { for (;;) { ${labels(n, same)} if (++c === 3) throw c; } } catch (e) { return ['caught', e]; }`)());
  t(`break outer after ${n}`, () => new Function(
    `let c = 0; outer: for (;;) { for (;;) { ${labels(n, same)} c++; if (c % 3 === 0) break; } if (c > 7) break outer; } return c;`)());
}
// the program's own code, not only new Function
t('own code', () => {
  let c = 0;
  for (;;) {
    l: break l;
    l: break l;
    l: break l;
    if (++c > 2) break;
  }
  return c;
});
t('own code, never called', () => {
  function spin() {
    for (;;) {
      l: break l;
      l: break l;
      l: break l;
    }
  }
  return typeof spin;
});
return out;
