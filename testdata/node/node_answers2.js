// Answers a second differential corpus (patch zze and the prelude): static
// class fields that name their own class, case-insensitive classes with
// non-ASCII letters, the ES2025 Set methods after the spec, JSON.parse's
// strict number and escape grammar, and for await closing its iterator.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const ta = async (k, f) => { try { out.push([k, await f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };

// static fields see the inner class binding
t('static spread self', () => { class Config { static defaults = { retries: 3 }; static current = { ...Config.defaults, verbose: true }; } return Config.current; });
t('static singleton', () => { class Registry { static instance = new Registry(); items = []; } Registry.instance.items.push('a'); return [Registry.instance.items, Registry.name, Registry.instance.constructor.name]; });
t('static this and name', () => { class SA { static a = 1; static b = SA.a + this.a; static n = SA.name; } return [SA.b, SA.n]; });
t('static expr name', () => { const C = class Named { static self = Named; static n = Named.name; }; return [C.self === C, C.n, C.name]; });
t('static arrow self', () => { class D { static make = () => new D(); static first = D.make(); } return [D.first instanceof D, D.name]; });
t('static sub', () => { class P { static k = 'p'; } class Q extends P { static k2 = Q.k + 'q'; } return [Q.k2, Q.name]; });
t('outer binding tdz', () => { let r; try { class E { static v = (() => { try { return typeof E; } catch (e) { return e.name; } })(); } r = E.v; } catch (e) { r = e.name; } return r; });

// case-insensitive classes
const ri = [
  [/[é]/i, 'É'], [/[É]/i, 'é'], [/[à-ÿ]/i, 'É'], [/[а-я]/i, 'Ж'], [/[А-Я]/i, 'ж'], [/[α-ω]/i, 'Σ'], [/[α-ω]/i, 'ς'],
  [/^[a-zäöüß]+$/i, 'Ärger'], [/^[a-zäöüß]+$/i, 'STRASSE'], [/[^é]/i, 'É'], [/[^é]/i, 'e'], [/[ÿ]/i, 'Ÿ'], [/[k]/i, '\u212a'],
  [/[k]/iu, '\u212a'], [/[s]/iu, '\u017f'], [/[A-Z]/iu, 'q'], [/[a-z]/i, 'Q'], [/\p{Lu}/iu, 'a'], [/\p{Ll}/iu, 'B'], [/[\p{Lu}]/iu, 'a'],
  [/[µ]/i, 'Μ'], [/[ǅ]/i, 'ǆ'], [/[ǆ]/i, 'Ǆ'], [/[ⓐ-ⓩ]/i, 'Ⓧ'], [/[ａ-ｚ]/i, 'Ｑ'], [/[\u0100-\u017f]/i, 'ą'], [/[\u0100-\u017f]/i, 'S'],
  [/[\u0000-\uffff]/i, 'x'], [/[^\u0000-\u0040]/i, 'a'], [/[\w]/i, 'ſ'], [/[ß]/i, 'ẞ'], [/[ẞ]/i, 'ß'], [/[ı]/i, 'I'], [/[İ]/i, 'i'],
  [/[\s\S]/i, 'É'], [/[\s\S]/iu, '😀'], [/[^a]/i, 'A'], [/[^\W]/i, 'é'], [/[\W]/i, 'É'], [/[\S]/i, 'ß'],
  [/[𐐨]/iu, '𐐀'], [/[ά-ώ]/i, 'Ά'], [/[ა-ჰ]/i, 'Ა'],
];
for (const [re, s] of ri) t('regexp ' + re + ' ' + s, () => re.test(s));
t('regexp replace', () => 'Éclair éclair'.replace(/[é]clair/gi, 'X'));
t('regexp match all', () => 'Ärger über ÖL'.match(/[äöü]\w*/gi));
t('regexp cyrillic word', () => 'Привет МИР'.replace(/[а-яё]+/gi, (m) => m.length));
t('regexp every character', () => ['ÉCLAIR σ 😀'.replace(/[\s\S]/gi, 'x'), /^[\s\S]+$/i.test('aÉσ'), /[\S\s]/iu.test('😀'), /[\d\D]{3}/i.exec('ÀbÇ')[0], /[^\s\S]/i.test('É')]);

// Set methods
const A = () => new Set([1, 2, 3, 4]);
const like = (xs) => ({ size: xs.length, has: (v) => xs.includes(v), keys: () => xs[Symbol.iterator]() });
for (const m of ['union', 'intersection', 'difference', 'symmetricDifference', 'isSubsetOf', 'isSupersetOf', 'isDisjointFrom']) {
  const show = (r) => (r instanceof Set ? [...r] : r);
  t(m + ' set', () => show(A()[m](new Set([4, 3, 2]))));
  t(m + ' bigger', () => show(A()[m](new Set([6, 5, 4, 3, 2, 1]))));
  t(m + ' map', () => show(A()[m](new Map([[4, 'x'], [2, 'y']]))));
  t(m + ' like', () => show(A()[m](like([9, 3, 1]))));
  t(m + ' array', () => show(A()[m]([5, 6])));
  t(m + ' number', () => show(A()[m](5)));
  t(m + ' negative size', () => show(A()[m]({ size: -1, has() {}, keys() {} })));
  t(m + ' no has', () => show(A()[m]({ size: 1, keys() {} })));
  t(m + ' receiver', () => show(Set.prototype[m].call({}, new Set())));
}
t('isSupersetOf closes', () => { let closed = 0; const o = { size: 1, has: () => true, keys: () => ({ next: () => ({ value: 9, done: false }), return() { closed++; return {}; } }) }; return [A().isSupersetOf(o), closed]; });
t('calls', () => { const log = []; const o = { size: 2, has(v) { log.push('has ' + v); return v === 2; }, keys() { log.push('keys'); return [2, 7][Symbol.iterator](); } }; return [[...A().intersection(o)], [...A().difference(o)], log]; });

// JSON.parse grammar
for (const s of ['1.', '{"price": 2.}', '-01', '01', '1.e5', '1e', '1e+', '-', '.5', '+1', '"\\x41"', '"\\a"', '"\\U0041"', '"\\u{41}"', '"\\v"', '"\\\'"', '"\\u00e"', '"\\0"',
  '1.5', '-0', '0.25e-3', '1E+2', '[1,2.5e1]', '"\\u0041\\n\\t\\/\\b\\f\\r\\"\\\\"', '"\\uD83D\\uDE00"', ' 7 ']) {
  t('JSON.parse ' + s, () => JSON.parse(s));
}
// for await left early awaits its iterator's return
{
const log = [];
let cleaned = false;
async function* pages() { try { yield 1; yield 2; } finally { await null; cleaned = true; log.push('fin'); } }
for await (const p of pages()) { if (p === 1) break; }
log.push('after break ' + cleaned);
cleaned = false;
for await (const p of pages()) { }
log.push('after done ' + cleaned);
const mk = (tag) => ({ [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ value: i++, done: i > 3 }), return: () => new Promise(r => setTimeout(() => { log.push('ret ' + tag); r({ done: true }); }, 5)) }; } });
for await (const x of mk('break')) break;
log.push('a');
outer: for (const o of [1, 2]) { for await (const x of mk('cont' + o)) continue outer; }
log.push('b');
async function f() { for await (const x of mk('return')) return x; }
log.push('f ' + await f());
for await (const x of mk('full')) {}
log.push('c');
async function g() { for (const y of [1]) { for await (const x of mk('nested')) return y; } }
log.push('g ' + await g());
await new Promise(r => setTimeout(r, 20));
const noRet = { [Symbol.asyncIterator]() { return { next: async () => ({ value: 1, done: false }) }; } };
for await (const x of noRet) break;
log.push('noRet');
const badRet = { [Symbol.asyncIterator]() { return { next: async () => ({ value: 1, done: false }), return: async () => 5 }; } };
try { for await (const x of badRet) break; } catch (e) { log.push(e.name); }
async function* ag() { for await (const x of mk('ag')) { yield x; break; } yield 'z'; }
for await (const v of ag()) log.push('ag ' + v);
out.push(['for await close', log]);
}
return out;
