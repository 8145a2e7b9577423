// Numeric literals as the tokenizer reads them: decimal integers of every
// length around the 19 digits and the 2^53 its fast path takes, 0, and
// fractions and exponents inside and outside its exact range (at most 19
// significant digits, a power of ten up to 22), each followed by every kind
// of character that sends a literal to the general path (more digits,
// '.', an exponent, '_', a BigInt suffix, identifier characters, an
// escape, non-ASCII) or ends it (operators, brackets, spaces, a line
// break, a comment), each compiled by eval; and literals in the program's
// own source.
const out = [];
const heads = ['1', '7', '10', '99', '100', '12345', '999999', '1234567', '12345678', '99999999',
  '123456789', '999999999', '100000000', '1000000000', '2147483647', '2147483648', '4294967295',
  '4294967296', '9007199254740991', '9007199254740992', '9007199254740993', '123456789012345678901234567890', '5', '9',
  '1234567890123456789', '9999999999999999999', '12345678901234567890', '0', '0.5', '0.1', '0.000001',
  '0.0', '0e5', '0.0e-0', '3.14159', '4.35', '0.30000000000000004', '1e9', '1e22', '1e23', '1E22', '1e-22',
  '1e-23', '0.1e-21', '0.1e-22', '1.5e3', '1.5E+3', '2.5e-3', '9.999e-5', '123.456e7', '1e999', '1e0999',
  '1.7976931348623157e308', '5e-324', '9007199254740993.5', '4503599627370496.5', '0.1234567890123456789',
  '0.12345678901234567890', '100000000000000000000.5', '7.0', '7.00000', '1.e5', '99e-1'];
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
  5e-1, 3., 1e21, 123456789e1, 1_2_3, -1, -123456789, 9 / 2, 7 % 3, 2 ** 10, 1 - -1,
  0, 0.5, 0.25e1, 1e9, 1e-7, 3.14159, 4.35 * 100, 0.1 + 0.2, 1e22, 1e23, 2.5e-3, 9007199254740993,
  12345678901234567890, 1.7976931348623157e308, 5e-324, 0.000001, 1e-22, 1.5e300 * 1e10];
direct.forEach((x, i) => out.push(['direct ' + i, typeof x, String(x)]));
out.push(['bigint', typeof 1n, String(123456789n * 10n)]);
out.push(['methods', 1..toString(), 2 .toFixed(1), 3.0.toFixed(2)]);
return out;
