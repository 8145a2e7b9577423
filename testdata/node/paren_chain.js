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
return out;
