// Small Intl answers that differed: Arabic relative times whose form spells
// the number out (one, two) carry no digits; PluralRules reports the
// locale of its rules (en-US is en, pt-PT stays); toLocaleDateString takes
// no timeStyle and toLocaleTimeString no dateStyle, even beside the other
// style.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
for (const loc of ['ar', 'ar-EG', 'en-US', 'pl-PL', 'ru-RU']) {
  for (const v of [-2, -1, 0, 1, 2, 3, 11, 100, -2.5]) {
    for (const u of ['second', 'day', 'month', 'year']) {
      t(`rtf ${loc} ${v} ${u}`, () => new Intl.RelativeTimeFormat(loc).format(v, u));
      t(`rtf auto ${loc} ${v} ${u}`, () => new Intl.RelativeTimeFormat(loc, { numeric: 'auto' }).format(v, u));
    }
  }
  t(`rtf parts ${loc}`, () => new Intl.RelativeTimeFormat(loc).formatToParts(-2, 'second'));
}
for (const loc of ['en-US', 'en-GB', 'en', 'de-DE', 'de-AT', 'fr-CA', 'zh-Hans', 'zh-Hant', 'pt-BR', 'pt-PT', 'es-419', 'ar-EG', 'ja-JP', 'xx', 'en-US-u-nu-arab', 'pt-PT-u-nu-latn']) {
  t(`plural ${loc}`, () => new Intl.PluralRules(loc).resolvedOptions().locale);
  t(`plural ordinal ${loc}`, () => new Intl.PluralRules(loc, { type: 'ordinal' }).resolvedOptions().locale);
}
const d = new Date(Date.UTC(2024, 0, 5, 10, 30));
for (const [m, o] of [['toLocaleDateString', { timeStyle: 'short' }], ['toLocaleTimeString', { dateStyle: 'short' }],
  ['toLocaleDateString', { dateStyle: 'short', timeStyle: 'short' }], ['toLocaleTimeString', { dateStyle: 'short', timeStyle: 'short' }],
  ['toLocaleString', { dateStyle: 'short', timeStyle: 'short' }], ['toLocaleDateString', { dateStyle: 'medium' }],
  ['toLocaleTimeString', { timeStyle: 'medium' }], ['toLocaleDateString', { dateStyle: 'short', hour: 'numeric' }]]) {
  t(`${m} ${JSON.stringify(o)}`, () => d[m]('en-US', { ...o, timeZone: 'UTC' }));
}
return out;
