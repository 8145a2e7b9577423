// Object and array literals where an expression starts, as the parser
// looks ahead for a destructuring assignment ('=' after the closing
// bracket): literals of identifiers, numbers, quoted strings with
// brackets, quotes and escapes inside, nested brackets, arrows, calls;
// and ones with what the engine leaves to the full look-ahead (regexps,
// division, templates, comments, HTML-like comments, escapes, line
// breaks in strings, non-ASCII characters, brackets that do not match,
// deep nesting); each followed by '=', '==', '===', '=>', a comma, a
// property access, a line break, a comment, or nothing.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const run = (src) => { try { return new Function(src)(); } catch (e) { return 'throws ' + e.name; } };

const arrays = ['[]', '[a]', '[a, b]', '[a, , b]', '[...c]', '[a, [b]]', '[[a], {b}]', '[a = 1]', '[(a)]',
  '["]", b]', "[']', b]", '["\\"]", a]', "['\\\\', a]", '["a\\nb", a]', '["é", a]', '["\\u005d", a]',
  '[/]/, a]', '[a / 2]', '[`]`, a]', '[a /* ] */]', '[a // ]\n]', '[a <!-- ]\n]', '[a\n--> ]\n]',
  '[\\u0061]', '[é]', '[a)', '[a}', '[(a]', '[a, f(b)]', '[x => x]', '[{ a: [1, { b: 2 }] }]',
  '[a / b, c / d]', '[a / b / c]', '[(a) / 2]', '[c[0] / 2]', '["x" / 2]', '[1.5 / 2, 0x10 / 2]', '[a++ / 2]',
  '[typeof /]/]', '[a /* ] */ / 2]', '[of / 2]', '[yield / 2]', '[await / 2]', '[let / 2]', '[this / 2]',
  '[x.return / 2]', '[x.y / 2]', '[a /= 2]', '[a / 2 // ]\n]', '[a /*]*/]', '[a /* ] \n */]', '[$ / _]',
  '[a1 / b2]', '[f(a) / 2, [b] / 2, { a } / 2]', '[a\n/ 2]', '[/=/]', '[a / /]/.source.length]',
  '[' + '['.repeat(240) + ']'.repeat(240) + ']', '["a\\\nb"]', "['a\u2028b']"];
const objects = ['{}', '{ a }', '{ a, b }', '{ a: b }', '{ a: 1, b: "}" }', "{ a: '}' }", '{ "a": b }',
  '{ a: { b } }', '{ ...c }', '{ a = 1 }', '{ [k]: b }', '{ a: f(b) }', '{ a: (b) }', '{ a: b / 2 }',
  '{ a: /}/ }', '{ a: `}` }', '{ a /* } */ }', '{ a // }\n}', '{ é }', '{ "é": a }', '{ a: "\\"}" }',
  '{ a: [b] }', '{ a: b ? c : d }', '{ a() { return 1; } }', '{ get a() { return 1; } }', '{ a: x => x }',
  '{ a: b <!-- }\n}', '{ a', '{ a: [ }', '{ "a\\\nb": 1 }', '{ a: b / 2, c: d / 2 }', '{ a: typeof /}/ }',
  '{ a: (b) / 2 }', '{ a: b / c / d }', '{ a: x.return / 2 }', '{ a: b /* } */ }', '{ a: b, // }\n}',
  '{ a: 100 * b / 3 }', '{ a: Math.round(b * 100) / 100 }'];
const after = [' = ', '=', ' == ', ' === ', ' => ', ', ', '.length', '\n= ', '\n\n = ', '/*c*/ = ', '//c\n= ',
  '\n-->c\n= ', '\t= ', ' =\n', '\u00a0= ', ''];
const vars = 'var a = 1, b = 2, c = [3], d = 4, k = "kk", x = 5, f = (v) => v; ';
for (const lit of [...arrays, ...objects]) {
  for (const a of after) {
    const rhs = a.includes('=') && !a.includes('==') && !a.includes('=>') ? '[7, 8, 9]' : '0';
    const body = a === '' ? '' : rhs;
    t(`${JSON.stringify(lit)} ${JSON.stringify(a)}`, () => run(`${vars}const r = (${lit}${a}${body}); return [typeof r, a, b, c, d];`));
  }
  t(`${JSON.stringify(lit)} as a statement`, () => run(`${vars}${lit}\n= [7, 8]; return [a, b];`));
  t(`${JSON.stringify(lit)} in an array`, () => run(`${vars}return [${lit}].length;`));
  t(`${JSON.stringify(lit)} returned`, () => run(`${vars}return ${lit};`));
}
t('nested deeper than the look-ahead follows', () => run(`return [${'['.repeat(260)}${']'.repeat(260)}].length;`));
t('regexp default with brackets', () => run('let a; [a = /]x]/.source] = []; return a;'));
t('regexp default in an object pattern', () => run('let a; ({ a = /}x}/.source } = {}); return a;'));
t('regexp after typeof in a default', () => run('let a; [a = typeof /]x]/] = []; return a;'));
t('regexp after void in a default', () => run('let a; [a = void /]x]/] = []; return a;'));
t('regexp after an operator in a default', () => run('let a; [a = 1 + /]x]/.source.length] = []; return a;'));
t('division in a default', () => run('let a, b = 4; [a = b / 2] = []; return a;'));
t('divisions in a default', () => run('let a, b = 8; [a = (b) / 2 / [2][0]] = []; return a;'));
t('division then a regexp in defaults', () => run('let a, c, b = 8; [a = b / 2, c = /]x]/.source] = []; return [a, c];'));
t('comment with a bracket in a pattern', () => run('let a, b; [a, /* ] */ b] = [1, 2]; return [a, b];'));
t('line comment with a bracket in a pattern', () => run('let a, b; [a, // ]\n b] = [1, 2]; return [a, b];'));
t('string default with brackets', () => run('let a; ({ a = "}]" } = {}); return a;'));
t('swap', () => run('let a = 1, b = 2; [a, b] = [b, a]; return [a, b];'));
t('object pattern', () => run('let a, b; ({ a, b } = { a: 3, b: 4 }); return [a, b];'));
t('nested pattern', () => run('let a, b, c; [a, { b, c: [c] }] = [1, { b: 2, c: [3] }]; return [a, b, c];'));
t('default in pattern', () => run('let a, b; [a = 5, b = a] = []; return [a, b];'));
t('chained', () => run('let a, b; [a] = [b] = [9]; return [a, b];'));
t('in a loop head', () => run('let s = 0, a, b; for ([a, b] of [[1, 2], [3, 4]]) s += a * b; return s;'));
t('arrow returning an object', () => run('return ((x) => ({ x, y: [x] }))(1);'));
t('literal then comparison', () => run('const a = [1]; return [[1] == a, { a: 1 } === a];'));
return out;
