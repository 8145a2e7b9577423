// URLSearchParams against Node's.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
t('parse', () => [...new URLSearchParams('?a=1&b=2&a=3&c&=x&d=')]);
t('decode', () => [...new URLSearchParams('q=hello+world&e=%E2%82%AC&bad=%zz&pct=%41%2')]);
t('object init', () => new URLSearchParams({ a: 1, b: 'x y', c: 'é&=' }).toString());
t('array init', () => new URLSearchParams([['a', '1'], ['a', '2']]).toString());
t('bad pair', () => new URLSearchParams([['a']]));
t('encode', () => new URLSearchParams({ s: "a b+c/d?e=f&g#h~i*j-k._l!m'n(o)p😀\u00e9" }).toString());
t('methods', () => { const p = new URLSearchParams('a=1&b=2&a=3'); p.append('c', 4); p.set('a', 'x'); p.delete('b'); return [p.toString(), p.get('a'), p.get('z'), p.getAll('a'), p.has('c'), p.has('c', '5'), p.size]; });
t('sort', () => { const p = new URLSearchParams('z=1&a=2&b=3&a=1'); p.sort(); return p.toString(); });
t('delete value', () => { const p = new URLSearchParams('a=1&a=2'); p.delete('a', '1'); return p.toString(); });
t('forEach', () => { const r = []; new URLSearchParams('x=1&y=2').forEach((v, k) => r.push(k + v)); return r; });
t('keys values', () => { const p = new URLSearchParams('x=1&y=2'); return [[...p.keys()], [...p.values()]]; });
t('tag', () => Object.prototype.toString.call(new URLSearchParams()));
t('lone surrogate', () => new URLSearchParams({ a: '\ud800' }).toString());
return out;
