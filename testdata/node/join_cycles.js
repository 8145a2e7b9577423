// An array that holds itself, directly or through others, joins as ""
// where it recurs (join, toString, toLocaleString, template literals), as
// in V8; QuickJS recursed until the stack overflowed.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const a = [1, 2]; a.push(a);
const b = [1, [2, [3]]]; const c = [b]; b.push(c);
const d = [new Date(0), 1.5, [a]];
const o = { toString() { return String(o.arr); } }; o.arr = [o, 'x'];
t('join', () => a.join());
t('String', () => String(a));
t('toString', () => a.toString());
t('separator', () => b.join('-'));
t('through another', () => String(c));
t('toLocaleString', () => a.toLocaleString());
t('toLocaleString options', () => d.toLocaleString('en-US', { timeZone: 'UTC' }));
t('template', () => `${[a, a]}`);
t('nested empties', () => [[], [[]], [a]].join('|'));
t('through an object', () => String(o));
t('sparse', () => { const s = [, a, , [a]]; a.push(s); const r = s.join(); a.pop(); return r; });
t('after', () => [a.length, [1, [2, 3]].join()]);
t('deep', () => { const deep = []; let cur = deep; for (let i = 0; i < 300; i++) { const n = []; cur.push(n, i); cur = n; } cur.push(deep); return deep.join().length; });
t('a thrown join leaves no mark', () => { const x = [1, { toString() { throw new Error('no'); } }]; try { x.join(); } catch (e) { /* ignore */ } x.pop(); return [x.join(), String([x, x])]; });
return out;
