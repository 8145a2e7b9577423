// A value that is not iterable, worded as V8 words it: a for-of or a
// spread names its operand (o is not iterable, data.items is not
// iterable, f is not a function or its return value is not iterable; a
// call's spread: Spread syntax requires ...iterable[Symbol.iterator] to be
// a function), built-ins and destructuring name the value's type. QuickJS
// said "value is not iterable", or, for undefined, that it could not read
// Symbol.iterator.
const out = []; const o = {}; let u; const n = 5; const data = { items: undefined, obj: {} }; const f = () => ({});
const t = (k, fn) => { try { fn(); out.push([k, 'ok']); } catch (e) { out.push([k, e.name + ': ' + e.message]); } };
t('for of var', () => { for (const x of o); });
t('for of undef', () => { for (const x of u); });
t('for of member', () => { for (const x of data.items); });
t('for of member obj', () => { for (const x of data.obj); });
t('for of call', () => { for (const x of f()); });
t('for of num lit', () => { for (const x of 5); });
t('for of obj lit', () => { for (const x of {}); });
t('for of null', () => { for (const x of null); });
t('for of expr', () => { for (const x of (u || o)); });
t('spread arr var', () => [...o]);
t('spread arr undef', () => [...u]);
t('spread arr member', () => [...data.items]);
t('spread arr num', () => [...n]);
t('spread call var', () => Math.max(...o));
t('spread call undef', () => Math.max(...u));
t('spread call member', () => Math.max(...data.items));
t('spread new', () => new Set(...o));
t('destr arr var', () => { const [a] = o; });
t('destr arr undef', () => { const [a] = u; });
t('destr arr member', () => { const [a] = data.items; });
t('destr assign', () => { let a; [a] = o; });
t('destr param', () => { (([a]) => a)(o); });
t('yield*', () => { function* g() { yield* o; } [...g()]; });

t('Map', () => new Map(o));
t('Set num', () => new Set(5));
t('Array.from num', () => Array.from(5));

t('fromEntries', () => Object.fromEntries(o));
t('fromEntries undef', () => Object.fromEntries(u));
t('WeakSet', () => new WeakSet(o));
t('Map fn', () => new Map(() => 1));
t('Map sym', () => new Map(Symbol('q')));
t('Map true', () => new Map(true));
t('for of this', function () { for (const x of this); }.bind(o));
t('for of index', () => { const a = [o]; for (const x of a[0]); });
t('for of long', () => { const a = { b: { c: { d: {} } } }; for (const x of a.b.c.d); });

t('in a function', () => { function total(order) { let s = 0; for (const line of order.lines) s += line; return s; } return total({}); });
t('nested member', () => { const r = { data: { rows: null } }; return [...r.data.rows]; });
t('method result', () => { const api = { list() { return 5; } }; for (const x of api.list()); });
t('computed', () => { const m = { k: {} }; const key = 'k'; for (const x of m[key]); });
t('optional', () => { const m = {}; for (const x of m?.rows); });
t('after a loop', () => { const r = []; for (let i = 0; i < 3; i++) r.push(i); for (const x of r.nope); });
t('a string is iterable', () => { const r = []; for (const c of 'ab') r.push(c); return r; });
t('Math.max spread of an array', () => Math.max(...[1, 5, 3]));
t('array-like spread', () => [...{ length: 1, 0: 'a' }]);
const a1 = [1];
t('call spread after an argument', () => Math.max(1, ...o));
t('call spread not last', () => Math.max(...o, 1));
t('call spread second', () => Math.max(...a1, ...o));
t('call spread first of two', () => Math.max(...o, ...a1));
t('call spread undef second', () => Math.max(...a1, ...u));
t('call spread undef first of two', () => Math.max(...u, ...a1));
t('call spread undef after an argument', () => Math.max(1, ...u));
t('new spread undef', () => new Set(...u));
t('call spread undef not last', () => Math.max(...u, 1));
t('iterator returns a primitive', () => [...{ [Symbol.iterator]() { return 5; } }]);
t('for-of iterator returns a primitive', () => { for (const x of { [Symbol.iterator]: () => 1 }); });
t('iterables still iterate', () => { const s = new Set([1, 2]); const m = new Map([[1, 'a']]); function* g() { yield 3; } return [...s, ...m, ...g(), ...'ab', ...[[4]]]; });
t('call spreads still spread', () => Math.max(...[1, 5], ...new Set([7]), ...(function* () { yield 2; })()));
t('destructuring for-of still works', () => { const r = []; for (const [k, v] of [[1, 2], [3, 4]]) r.push(k + v); return r; });
t('call spread of null', () => { const n0 = null; return Math.max(...n0); });
t('new spread of null', () => { const n0 = null; return new Set(...n0); });
t('a key that ends like a call', () => { const k = { '(...)': 5 }; for (const v of k['(...)']); });
t('a call in brackets', () => { const k = { f() { return 1; } }; for (const v of k['f']()); });
t('optional chain as a call spread', () => { const k = {}; return Math.max(...k?.z); });
t('built-in in the prelude: groupBy', () => Object.groupBy(5, (x) => x));
t('built-in in the prelude: ListFormat', () => new Intl.ListFormat('en').format(5));
t('built-in: allSettled null', () => Promise.allSettled(null).catch((e) => e.message) && 'rejected');
return out;
