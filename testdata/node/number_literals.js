// Numeric literals as the tokenizer reads them: every length of decimal
// integer around the 9 digits its fast path takes, followed by every kind
// of character that sends a literal to the general path (a 10th digit,
// '.', an exponent, '_', a BigInt suffix, identifier characters, an
// escape, non-ASCII) or ends it (operators, brackets, spaces, a line
// break, a comment), each compiled by eval; and literals in the program's
// own source.
const out = [];
const heads = ['1', '7', '10', '99', '100', '12345', '999999', '1234567', '12345678', '99999999',
  '123456789', '999999999', '100000000', '1000000000', '2147483647', '2147483648', '4294967295',
  '4294967296', '9007199254740991', '9007199254740993', '123456789012345678901234567890', '5', '9'];
const tails = ['', ' ', '\n', ';', ')', ']', '}', ',', '+1', '-1', '*2', '/2', '%7', '**1', '<2', '>2',
  '==1', '?1:2', '|0', '&1', '^1', '>>1', '<<1', '>>>0', '.5', '.', '..toString()', '.toString()',
  'e2', 'E2', 'e-2', 'e+2', 'e', '_000', '_', 'n', 'n+1n', 'm', 'l', 'x', 'in []', 'instanceof Number',
  '$', '\\u0061', '\u00e9', '\u2028', '/*c*/', '//c', '0', '00', '9', '.0e1', '[0]', '`x`'];
for (const h of heads) {
  for (const t of tails) {
    const src = h + t;
    try {
      const v = eval(src);
      out.push([src, typeof v, String(v)]);
    } catch (e) {
      out.push([src, e.name]);
    }
  }
}
const direct = [1, 12, 123, 1234, 12345, 123456, 1234567, 12345678, 123456789, 1234567890,
  999999999, 1000000000, 2147483647, 2147483648, 1e3, 1.5, 1_000, 10_0, 0x1f, 0o17, 0b101, 017, 08,
  5e-1, 3., 1e21, 123456789e1, 1_2_3, -1, -123456789, 9 / 2, 7 % 3, 2 ** 10, 1 - -1];
direct.forEach((x, i) => out.push(['direct ' + i, typeof x, String(x)]));
out.push(['bigint', typeof 1n, String(123456789n * 10n)]);
out.push(['methods', 1..toString(), 2 .toFixed(1), 3.0.toFixed(2)]);
return out;
