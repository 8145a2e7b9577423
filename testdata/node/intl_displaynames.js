// Intl.DisplayNames: language (dialect and standard), region, script and
// currency names in long, short and narrow style with both fallbacks, for
// the locales modebox ships; of()'s validation; resolvedOptions.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
const LOCALES = ['en-US', 'en-GB', 'en-IN', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE', 'pl-PL', 'ru-RU', 'tr-TR',
  'ja-JP', 'zh-CN', 'ko-KR', 'hi-IN', 'ar-EG'];
const codes = {
  language: ['en', 'en-GB', 'en-US', 'fr', 'fr-CA', 'de', 'de-AT', 'de-CH', 'es', 'es-419', 'es-MX', 'pt', 'pt-BR', 'pt-PT', 'zh', 'zh-Hans',
    'zh-Hant', 'zh-Hant-TW', 'zh-TW', 'ja', 'ko', 'ar', 'ar-001', 'hi', 'ru', 'tr', 'it', 'nl', 'nl-BE', 'sv', 'pl', 'sr-Latn', 'sr-Cyrl-ME',
    'en-Latn-US', 'az-Arab', 'en-150', 'en-fonipa', 'xx', 'xx-YY', 'en-XY', 'EN-gb', 'iw', 'mo', 'in', 'yue-Hant-HK', 'ko-KP'],
  region: ['US', 'GB', 'DE', 'FR', 'JP', 'CN', 'HK', 'MO', 'PS', 'UN', 'EU', '419', '001', '150', 'ZZ', 'XK', 'QO', 'AA', 'us', 'Gb', '276', '999'],
  script: ['Latn', 'Cyrl', 'Arab', 'Hans', 'Hant', 'Deva', 'Jpan', 'Kore', 'Zzzz', 'Zyyy', 'Qaaa', 'latn'],
  currency: ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'INR', 'BRL', 'RUB', 'TRY', 'KRW', 'EGP', 'CHF', 'XXX', 'usd', 'ABC'],
  calendar: ['gregory', 'buddhist', 'chinese', 'coptic', 'dangi', 'ethioaa', 'ethiopic', 'hebrew', 'indian', 'islamic', 'islamic-civil',
    'islamic-rgsa', 'islamic-tbla', 'islamic-umalqura', 'iso8601', 'japanese', 'persian', 'roc', 'xyz', 'islamicc', 'GREGORY'],
  dateTimeField: ['era', 'year', 'quarter', 'month', 'weekOfYear', 'weekday', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'timeZoneName'],
};
for (const loc of LOCALES) {
  for (const type of Object.keys(codes)) {
    for (const style of ['long', 'short', 'narrow']) {
      t(`${loc} ${type} ${style}`, () => { const dn = new Intl.DisplayNames(loc, { type, style }); return codes[type].map((c) => dn.of(c)); });
    }
    t(`${loc} ${type} none`, () => { const dn = new Intl.DisplayNames(loc, { type, fallback: 'none' }); return codes[type].map((c) => dn.of(c) ?? null); });
  }
  t(`${loc} language standard`, () => { const dn = new Intl.DisplayNames(loc, { type: 'language', languageDisplay: 'standard' }); return codes.language.map((c) => dn.of(c)); });
}
const bad = { language: ['en_US', 'root', 'en-u-ca-buddhist', 'i-klingon', 'zh-min-nan', '', '1a', 'en-GB-GB', 'en-fonipa-fonipa'], region: ['USA', 'U', 'DE ', '12', 1], script: ['Lat', 'Latin1', '1234'], currency: ['US', 'USDD', '123', 'U$D'],
  calendar: ['gr', 'a-b', 'gregorian1', 'greg_ory'], dateTimeField: ['years', 'Year', 'week', 'zone', ''] };
for (const [type, cs] of Object.entries(bad)) for (const c of cs) t(`bad ${type} ${JSON.stringify(c)}`, () => new Intl.DisplayNames('en', { type }).of(c));
t('of undefined', () => new Intl.DisplayNames('en', { type: 'region' }).of());
t('no options', () => new Intl.DisplayNames('en'));
t('no type', () => new Intl.DisplayNames('en', {}));
t('bad type', () => new Intl.DisplayNames('en', { type: 'x' }));
t('bad style first', () => new Intl.DisplayNames('en', { type: 'x', style: 'bad' }));
t('bad fallback', () => new Intl.DisplayNames('en', { type: 'region', fallback: 'bad' }));
t('bad languageDisplay', () => new Intl.DisplayNames('en', { type: 'region', languageDisplay: 'bad' }));
t('no new', () => Intl.DisplayNames('en', { type: 'region' }));
t('resolved region', () => new Intl.DisplayNames('en', { type: 'region' }).resolvedOptions());
t('resolved language', () => new Intl.DisplayNames('de-DE', { type: 'language', style: 'short', fallback: 'none' }).resolvedOptions());
t('resolved fallback locale', () => new Intl.DisplayNames('xx', { type: 'currency', style: 'narrow' }).resolvedOptions());
t('resolved keys', () => Object.keys(new Intl.DisplayNames(['ja-JP'], { type: 'script' }).resolvedOptions()));
t('toStringTag', () => Object.prototype.toString.call(new Intl.DisplayNames('en', { type: 'region' })));
t('length', () => [Intl.DisplayNames.length, Intl.DisplayNames.name, Intl.DisplayNames.prototype.of.length]);
t('bad receiver', () => Intl.DisplayNames.prototype.of.call({}, 'US'));
t('supportedLocalesOf', () => Intl.DisplayNames.supportedLocalesOf(['de', 'xx', 'ja-JP']));
t('getCanonicalLocales mo', () => Intl.getCanonicalLocales(['mo', 'mo-MD', 'mo-Latn', 'MO']));
return out;
