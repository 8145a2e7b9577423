// Spread calls and apply with many arguments: up to V8's limit (about
// 125,000) they work in both; QuickJS stopped at 65,535. V8 stops
// constructor calls far sooner (new with 65,535 arguments throws), so
// those are compared at 1,000 only.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
for (const n of [1000, 65535, 65536, 100000, 120000]) {
  const a = Array.from({ length: n }, (_, i) => i);
  t('max ' + n, () => Math.max(...a));
  t('min apply ' + n, () => Math.min.apply(null, a));
  t('push ' + n, () => [].push(...a));
  t('fromCharCode ' + n, () => String.fromCharCode(...a.map((x) => 65 + (x % 26))).slice(-30));
  t('rest ' + n, () => ((...xs) => [xs.length, xs[n - 1]])(...a));
  t('arguments ' + n, () => (function () { return [arguments.length, arguments[n - 1]]; }).apply(null, a));
  t('Reflect.apply ' + n, () => Reflect.apply(Math.max, null, a));
  if (n <= 1000) t('Reflect.construct ' + n, () => Reflect.construct(Array, a).length);
  if (n <= 1000) t('new Array ' + n, () => new Array(...a).length);
  t('params ' + n, () => (function (x, y) { return [x, y, arguments.length]; })(...a));
  t('generator ' + n, () => (function* (...xs) { yield xs.length; })(...a).next().value);
  if (n <= 1000) t('class ' + n, () => new (class { constructor(...xs) { this.n = xs.length; } })(...a).n);
  if (n <= 1000) t('super ' + n, () => { class B { constructor(...xs) { this.n = xs.length; } } class C extends B { constructor() { super(...a); } } return new C().n; });
  t('proxy ' + n, () => new Proxy(function () { return arguments.length; }, {})(...a));
  t('concat ' + n, () => [].concat(...a.map((x) => [x])).length);
}
out.push(['async spread', await (async (...xs) => xs.length)(...Array.from({ length: 100000 }, () => 1))]);
return out;
