// The change-by-copy methods (toSorted, toReversed, toSpliced, with) read
// every index: a hole is undefined in the copy. Object.hasOwn of null or
// undefined throws, as in V8.
const out = [];
const t = (k, f) => { try { const v = f(); out.push([k, Array.isArray(v) ? v.map((x, i) => (i in v ? x : '<hole>')) : v]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
const holes = [, 1, , 3, ,];
t('with', () => [, 1].with(1, 2).map(() => 'v'));
t('with holes', () => holes.with(0, 'a'));
t('toReversed holes', () => holes.toReversed());
t('toSorted holes', () => holes.toSorted());
t('toSorted undefined last', () => [3, undefined, , 1].toSorted());
t('toSpliced holes', () => holes.toSpliced(1, 1, 'x'));
t('toSpliced no args', () => holes.toSpliced());
t('array-like', () => Array.prototype.toReversed.call({ length: 3, 0: 'a', 2: 'c' }));
t('array-like with', () => Array.prototype.with.call({ length: 2, 1: 'b' }, 0, 'z'));
t('string', () => Array.prototype.toSorted.call('cab'));
t('with negative', () => [1, 2, 3].with(-1, 9));
t('with out of range', () => [1, 2, 3].with(3, 9));
t('toSorted comparator', () => [3, 1, 2].toSorted((a, b) => b - a));
t('toSorted bad comparator', () => [3, 1, 2].toSorted(5));
t('original unchanged', () => { const a = [3, , 1]; a.toSorted(); a.toReversed(); return a; });
t('hasOwn', () => [Object.hasOwn({ a: 1 }, 'a'), Object.hasOwn([1], 0), Object.hasOwn('ab', 1), Object.hasOwn({}, 'toString')]);
t('hasOwn null', () => Object.hasOwn(null, 'a'));
t('hasOwn undefined', () => Object.hasOwn(undefined, 'a'));
return out;
