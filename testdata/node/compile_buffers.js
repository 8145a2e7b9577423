// The compiler's and writers' growing buffers (patch zm9: they start at 64
// bytes and double to 256, then grow by half): functions whose bytecode,
// line table, labels and constants end on either side of every step,
// regular expressions whose compiled code does, and the Unicode
// normalisation's buffers, each compared with Node's result.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name]); } };

// a function of n statements: its bytecode grows ~10 bytes a statement, its
// line table a few bytes a line, and every statement has a label and a jump
for (const n of [0, 1, 2, 3, 5, 6, 7, 8, 12, 13, 24, 25, 26, 50, 51, 52, 53, 100, 101, 400]) {
  let body = 'let s = a;\n';
  for (let i = 0; i < n; i++) body += `s = s > ${i} ? s - ${i} : s + ${i * 3}; lbl${i}: for (;;) { if (s % 2) break lbl${i}; s++; break; }\n`;
  body += 'return s;';
  t('statements ' + n, () => { const f = new Function('a', body); return [f(7), f(1e6)]; });
}

// many constants and closures: the constant pool and closure variables grow
for (const n of [1, 4, 5, 16, 17, 64, 65, 200]) {
  let src = 'const fs = [];\n';
  for (let i = 0; i < n; i++) src += `const c${i} = ${i} * 1.5; fs.push(() => c${i} + "k${i}");\n`;
  src += 'return fs.map((f) => f()).join(",").length + ":" + fs[fs.length - 1]();';
  t('closures ' + n, () => new Function(src)());
}

// regular expressions of n alternatives and n groups
for (const n of [1, 2, 7, 8, 9, 20, 21, 40, 41, 100]) {
  const alts = Array.from({ length: n }, (_, i) => 'w' + i + 'x');
  const re = new RegExp('^(?:' + alts.join('|') + ')$');
  const groups = new RegExp(Array.from({ length: n }, (_, i) => '(?<g' + i + '>[a-c]' + (i % 3 ? '+' : '*') + ')').join('-'));
  const text = Array.from({ length: n }, (_, i) => 'abc'.slice(0, 1 + (i % 3))).join('-');
  const m = groups.exec(text);
  t('regexp ' + n, () => [re.test('w' + (n - 1) + 'x'), re.test('w' + n + 'x'), m && Object.keys(m.groups).length, m && m[n]]);
}

// errors thrown from deep in a long function: the line table is read back
// for the stack (its format is the engine's own; the message is compared)
for (const n of [1, 30, 300]) {
  let body = '';
  for (let i = 0; i < n; i++) body += `x = (x * 31 + ${i}) % 1000003;\n`;
  body += 'null.f;';
  t('throws after ' + n + ' lines', () => {
    try { new Function('let x = 1;\n' + body)(); return 'no error'; } catch (e) { return [e instanceof TypeError, e.message]; }
  });
}

// normalisation of strings of n decomposable characters
for (const n of [1, 15, 16, 17, 63, 64, 65, 300]) {
  const s = 'é'.repeat(n) + 'Å'.repeat(n % 7) + 'ﬁ';
  t('normalize ' + n, () => [s.normalize('NFD').length, s.normalize('NFKD').length, s.normalize('NFD').normalize('NFC') === s.normalize('NFC')]);
}
return out;
