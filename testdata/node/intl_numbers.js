// Generated NumberFormat cases: numbers x the 18 locales x options.
const locales = ['en-US', 'en-GB', 'en-IN', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE', 'pl-PL',
  'ru-RU', 'tr-TR', 'ja-JP', 'zh-CN', 'ko-KR', 'hi-IN', 'ar-EG'];
const numbers = [0, -0, 1, -1, 0.5, 1.005, 2.5, -2.5, 12.345, 999.995, 1234, 12345.6789, -98765.4321, 1234567.891,
  0.000123, 1e21, 123456789012, NaN, Infinity, -Infinity, 1000000, 0.1 + 0.2];
const options = [
  {}, { minimumFractionDigits: 2 }, { maximumFractionDigits: 0 }, { maximumSignificantDigits: 3 },
  { minimumIntegerDigits: 3 }, { useGrouping: false }, { style: 'percent' }, { style: 'percent', maximumFractionDigits: 2 },
  { style: 'currency', currency: 'USD' }, { style: 'currency', currency: 'EUR' }, { style: 'currency', currency: 'JPY' },
  { style: 'currency', currency: 'INR', currencyDisplay: 'code' }, { style: 'currency', currency: 'GBP', currencyDisplay: 'name' },
  { style: 'currency', currency: 'USD', currencySign: 'accounting' }, { style: 'currency', currency: 'EUR', currencyDisplay: 'narrowSymbol' },
  { notation: 'compact' }, { notation: 'compact', compactDisplay: 'long' }, { notation: 'scientific' }, { notation: 'engineering' },
  { signDisplay: 'always' }, { signDisplay: 'exceptZero' }, { signDisplay: 'never' }, { signDisplay: 'negative' },
  { style: 'unit', unit: 'kilometer' }, { style: 'unit', unit: 'kilometer-per-hour', unitDisplay: 'long' },
  { style: 'unit', unit: 'megabyte', unitDisplay: 'narrow' }, { style: 'unit', unit: 'percent' },
  { style: 'currency', currency: 'USD', notation: 'compact' }, { minimumFractionDigits: 1, maximumFractionDigits: 1, roundingMode: 'halfEven' },
  { maximumFractionDigits: 2, roundingMode: 'floor' }, { maximumFractionDigits: 1, roundingIncrement: 5, minimumFractionDigits: 1 },
  { useGrouping: 'min2' }, { maximumSignificantDigits: 2, maximumFractionDigits: 3, roundingPriority: 'morePrecision' },
  { trailingZeroDisplay: 'stripIfInteger', minimumFractionDigits: 2 },
];
const out = [];
for (const l of locales) {
  for (let oi = 0; oi < options.length; oi++) {
    let nf;
    try { nf = new Intl.NumberFormat(l, options[oi]); } catch (e) { out.push([l + ' ' + oi, 'throws ' + e.name]); continue; }
    for (const n of numbers) out.push([l + ' ' + JSON.stringify(options[oi]) + ' ' + (Object.is(n, -0) ? '-0' : String(n)), nf.format(n)]);
    out.push([l + ' ' + oi + ' resolvedOptions', nf.resolvedOptions()]);
  }
  out.push([l + ' parts', new Intl.NumberFormat(l, { style: 'currency', currency: 'EUR' }).formatToParts(-1234.5)]);
  out.push([l + ' bigint', (123456789012345678901234567890n).toLocaleString(l)]);
  out.push([l + ' string', new Intl.NumberFormat(l, { maximumFractionDigits: 20 }).format('12345678901234567890.123456789')]);
}
return out;
