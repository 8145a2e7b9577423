// What follows a '(' as the parser looks ahead: whether a parenthesized
// text is an arrow function's parameters, and whether a parameter list
// holds a default ('='). Texts of identifiers, spaces and punctuators
// only (which the engine reads from the source), and texts with each
// kind of thing that sends it to the full look-ahead (numbers, strings,
// templates, regexps, comments, brackets, '=', '!', escapes, non-ASCII,
// line breaks, the HTML comment '<!--'), each followed by '=>' after
// spaces, a tab, a line break, a comment, other white space, or by
// something else; as arrows, async arrows, parenthesized expressions,
// and function, method and async function parameters.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const compile = (src) => { try { return typeof new Function(src); } catch (e) { return 'throws ' + e.name; } };
const run = (src) => { try { return new Function(src)(); } catch (e) { return 'throws ' + e.name; } };

const inner = ['', 'a', 'a, b', 'a,b', ' a ', '\ta\t', '...a', 'a, ...b', 'a = 1', 'a, b = a', 'a + b',
  'a - b * c % d', 'a < b', 'a > b', 'a && b || c', 'a ?? b', 'a ? b : c', 'a?.b', 'a.b.c', 'x1, y22',
  '$, _', '$a_1', 'a1b2', '1', 'a, 1', '1a', 'a.5', 'a?.5:1', '[a]', '{ a }', '(a)', 'a /*)*/', 'a // c\n',
  "'('", '"a"', '`)`', '/)/', 'a\\u0062', 'é', '#a in b', 'a\n', 'a\r\n, b', 'a <!-- b', '!a', 'a == b',
  'a === b', 'a => a', 'a ~ b', 'a | b ^ c & d', 'a >>> b', 'a << b', 'async', 'await', 'yield', 'let',
  'a, , b', 'a,', ',a', 'a b', 'a. b', 'a ..b', 'a ... b'];
const after = ['=>', ' =>', '  =>', '\t=>', '\n=>', '\r\n=>', '/*c*/=>', ' /*c*/ =>', '\v=>', '\f=>',
  '\u00a0=>', '\u2028=>', '= >', '=>>', '==>', '', ';', ' + 1', '.x', '[0]', '(1)', ' // c\n=>'];

for (const i of inner) {
  for (const a of after) {
    const p = '(' + i + ')' + a;
    t(`arrow ${JSON.stringify(p)}`, () => compile(`return ${p} 1;`));
    t(`async arrow ${JSON.stringify(p)}`, () => compile(`return async ${p} 1;`));
  }
  t(`expression ${JSON.stringify(i)}`, () => run(`var a = 2, b = 3, c = 4, d = 5, x1 = 6, y22 = 7, $ = 8, _ = 9, $a_1 = 10, a1b2 = 11; return (${i});`));
  t(`called arrow ${JSON.stringify(i)}`, () => run(`return ((${i}) => typeof a)(1, 2);`));
  t(`function ${JSON.stringify(i)}`, () => run(`function f(${i}) { return [f.length, typeof a]; } return f(1, 2);`));
  t(`method ${JSON.stringify(i)}`, () => run(`return { m(${i}) { return arguments.length; } }.m(1, 2, 3);`));
  t(`async function ${JSON.stringify(i)}`, () => compile(`async function f(${i}) { return 1; }`));
  t(`length ${JSON.stringify(i)}`, () => run(`return ((${i}) => 0).length;`));
}
t('arrow at the end', () => compile('return (a) =>'));
t('paren at the end', () => compile('return (a'));
t('nested arrows', () => run('return ((a) => (b) => (c) => a + b + c)(1)(2)(3);'));
t('arrow in call', () => run('return [1, 2, 3].map((x) => x * 2).filter((x, i) => i > 0);'));
t('async arrow in call', () => compile('return Promise.all([1].map(async (x) => await x));'));
t('default after simple', () => run('function f(a, b = a + 1) { return b; } return f(1);'));
t('arrow body object', () => run('return ((a, b) => ({ a, b }))(1, 2);'));
return out;
