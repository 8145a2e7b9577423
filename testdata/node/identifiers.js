// Identifiers as the tokenizer reads them: ASCII ones of every length
// (across the 128-byte buffer the general reader starts with), followed by
// each kind of character; ones that go on with an escape or a non-ASCII
// character (read again by the general reader); keywords and contextual
// keywords, written out and escaped; names the engine already knows
// ('length', 'constructor') and new ones; an identifier at the very end of
// a program.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };
const run = (src) => new Function(src)();

// lengths around the reader's buffer and beyond
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$0123456789';
const ident = (n, seed) => {
  let s = '';
  for (let i = 0; i < n; i++) s += letters[(i * 7 + seed) % (i === 0 ? 54 : 64)];
  return s;
};
for (const n of [1, 2, 3, 7, 8, 63, 64, 120, 123, 124, 125, 126, 127, 128, 129, 200, 255, 256, 300, 1000]) {
  const id = ident(n, n);
  t(`length ${n}`, () => run(`let ${id} = ${n}; ${id} += 1; return [${id}, typeof ${id}, Object.keys({ ${id}: 1 })[0].length];`));
  t(`length ${n}, escaped last`, () => {
    const last = id.charCodeAt(n - 1).toString(16).padStart(4, '0');
    return run(`let ${id} = 5; return ${id.slice(0, -1)}\\u${last};`);
  });
  t(`length ${n}, non-ASCII next`, () => run(`let ${id}é = 1, ${id} = 2; return [${id}é, ${id}];`));
  t(`length ${n}, at the end`, () => typeof new Function(`let ${id}; ${id}`));
}
// followed by each printable ASCII character, and a few others
for (let c = 32; c < 127; c++) {
  const ch = String.fromCharCode(c);
  t(`followed by ${JSON.stringify(ch)}`, () => {
    const src = `var ab = 3; var abc = 4; return (ab${ch}`;
    try {
      return [typeof new Function(src + ')'), typeof new Function(src + '0)')];
    } catch (e) {
      return 'throws ' + e.name;
    }
  });
}
t('tab, newline, CR, LS, PS after', () => run('var a = 1; return [a\t, a\n, a\r, a\u2028, a\u2029].length;'));
t('NUL after', () => { try { return typeof new Function('return a\u0000'); } catch (e) { return 'throws ' + e.name; } });
// escapes and non-ASCII characters inside
t('escape in the middle', () => run('var abc = 9; return a\\u0062c;'));
t('escape first', () => run('var abc = 9; return \\u0061bc;'));
t('braced escape', () => run('var abc = 9; return ab\\u{63};'));
t('non-ASCII in the middle', () => run('var aéb = 1, a = 2; return [aéb, a];'));
t('non-ASCII first', () => run('var éa = 4; return éa;'));
t('astral', () => run('var a𝑥 = 6; return a𝑥;'));
t('ZWNJ and ZWJ', () => run('var a\u200Cb = 1, a\u200Db = 2; return [a\u200Cb, a\u200Db];'));
t('backslash not u', () => { try { return typeof new Function('var a\\x = 1'); } catch (e) { return 'throws ' + e.name; } });
// keywords, contextual keywords, escaped keywords
for (const kw of ['if', 'in', 'do', 'for', 'let', 'new', 'var', 'this', 'void', 'with', 'break', 'const', 'class', 'super', 'typeof', 'return', 'delete', 'switch', 'instanceof', 'yield', 'await', 'async', 'of', 'get', 'set', 'static', 'arguments', 'eval', 'undefined', 'NaN']) {
  t(`as a name: ${kw}`, () => { try { return typeof new Function(`var ${kw} = 1; return ${kw};`); } catch (e) { return 'throws ' + e.name; } });
  t(`as a property: ${kw}`, () => run(`const o = { ${kw}: 1 }; o.${kw} += 1; return [o.${kw}, Object.keys(o)];`));
  t(`escaped: ${kw}`, () => {
    const esc = '\\u' + kw.charCodeAt(0).toString(16).padStart(4, '0') + kw.slice(1);
    try { return typeof new Function(`var ${esc} = 1; return ${esc};`); } catch (e) { return 'throws ' + e.name; }
  });
  t(`prefix and suffix: ${kw}`, () => run(`var ${kw}x = 1, x${kw} = 2, _${kw}_ = 3; return [${kw}x, x${kw}, _${kw}_];`));
}
t('yield in a generator', () => [...new Function('return function* () { yield 1; yield 2; }')()()]);
t('await in an async function', () => typeof new Function('return async function () { await 1; }')());
t('await as a name outside', () => run('var await = 3; return await;'));
t('yield as a name outside', () => run('var yield = 4; return yield;'));
t('let as a name', () => run('var let = 5; return let;'));
t('strict reserved', () => { try { return typeof new Function('"use strict"; var implements = 1;'); } catch (e) { return 'throws ' + e.name; } });
// names the engine knows and new ones, as properties and variables
t('known names', () => run('const length = 1, constructor = 2, prototype = 3, toString = 4; return [length, constructor, prototype, toString];'));
t('known as properties', () => run('const o = { length: 1, name: 2, value: 3 }; return [o.length, o.name, o.value, [1, 2].length];'));
t('many new names', () => {
  let src = '';
  for (let i = 0; i < 300; i++) src += `var v${i}_${ident(i % 40 + 1, i)} = ${i};\n`;
  src += 'return [v0_' + ident(1, 0) + ', v299_' + ident(299 % 40 + 1, 299) + '];';
  return run(src);
});
t('labels and private names', () => run('class C { #abc = 1; get abc() { return this.#abc; } } lbl: for (;;) { break lbl; } return new C().abc;'));
t('shorthand and destructuring', () => run('const abc = 1, def = 2; const o = { abc, def }; const { abc: x, def: y } = o; return [x, y, o];'));
t('template and regexp neighbours', () => run('const ab = 2; return [`${ab}x`, /ab/.test("xab"), ab/2];'));
t('identifier last in the program', () => typeof new Function('var zz = 1; zz'));
return out;
