// String literals and white space as the tokenizer reads them: quoted
// strings of printable ASCII characters (which the engine makes from the
// source in one piece), each followed by each kind of character that
// sends a string to the general reader (an escape, a non-ASCII
// character, a control character, a line break, LS, PS, the end of the
// program) in both quotes; the other quote inside; empty and long
// strings; and runs of spaces, tabs, vertical tabs and form feeds
// between tokens, around line breaks and comments.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const ev = (src) => { try { const v = (0, eval)(src); return [typeof v, v]; } catch (e) { return 'throws ' + e.name; } };

let printable = '';
for (let c = 32; c < 127; c++) printable += String.fromCharCode(c);
for (const q of ["'", '"']) {
  const safe = printable.split('').filter((ch) => ch !== q && ch !== '\\').join('');
  t(`printable ${q}`, () => ev(q + safe + q));
  t(`empty ${q}`, () => ev(q + q + '.length'));
  t(`other quote ${q}`, () => ev(q + (q === '"' ? "it's" : 'say "hi"') + q));
  t(`long ${q}`, () => ev(q + 'abc'.repeat(5000) + q + '.length'));
  t(`unterminated ${q}`, () => ev(q + 'abc'));
  t(`unterminated at line end ${q}`, () => ev(q + 'abc\n' + q));
  t(`as key ${q}`, () => ev('({' + q + 'a b' + q + ': 1})[' + q + 'a b' + q + ']'));
  t(`concatenated ${q}`, () => ev(q + 'ab' + q + '+' + q + 'cd' + q));
  for (const tail of ['\\n', '\\t', "\\'", '\\"', '\\\\', '\\x41', '\\u0042', '\\u{1F600}', '\\0', '\\\n', 'é',
    '\u00a0', '😀', '\u2028', '\u2029', '\t', '\u0001', '\u007f', '\r', '\n', '\\', '\\z', '\\08', '\\1']) {
    for (const head of ['', 'a', 'abc def']) {
      t(`${q} ${JSON.stringify(head)} + ${JSON.stringify(tail)}`, () => ev(q + head + tail + 'x' + q));
    }
  }
  t(`at the end ${q}`, () => typeof new Function('return ' + q + 'abc' + q));
  t(`then a property ${q}`, () => ev(q + 'abc' + q + '.toUpperCase()'));
  t(`in a template ${q}`, () => ev('`${' + q + 'a' + q + '}b`'));
}
t('strict octal', () => ev('"use strict"; "\\08"'));
t('strict legacy octal', () => ev('"use strict"; "\\1"'));
const spaces = [' ', '  ', '\t', '\t\t', ' \t ', '\v', '\f', ' \v\f\t ', '        ', '\u00a0', '\ufeff', '\u3000'];
for (const w of spaces) {
  t(`between tokens ${JSON.stringify(w)}`, () => ev(`var${w}a${w}=${w}1${w}+${w}2${w};${w}a`));
  t(`around a line break ${JSON.stringify(w)}`, () => ev(`var a = 1${w}\n${w}a++${w}\n${w}a`));
  t(`around a comment ${JSON.stringify(w)}`, () => ev(`${w}/*c*/${w}1${w}//c\n${w}+ 1`));
  t(`indentation ${JSON.stringify(w)}`, () => ev(`function f() {\n${w.repeat(4)}return 2;\n}\nf()`));
  t(`at the end ${JSON.stringify(w)}`, () => ev(`1 + 2${w}`));
  t(`ASI ${JSON.stringify(w)}`, () => ev(`var x = 1${w}\n${w}(function () { return 5; })${w}`));
}
return out;
