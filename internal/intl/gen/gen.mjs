// Reads FormatJS's CLDR locale data for the locales modebox ships and
// prints one JSON document: {locales: {tag: {number, date, list, relative}}}.
// Run by gen.sh; the output is deterministic (sorted keys).
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);

export const LOCALES = [
  'en', 'en-001', 'en-GB', 'en-IN', 'en-AU', 'en-CA', 'de', 'de-AT', 'de-CH', 'fr', 'fr-CA', 'es', 'es-419', 'es-MX',
  'it', 'pt', 'pt-PT', 'nl', 'sv', 'pl', 'ru', 'tr', 'ja', 'zh', 'zh-Hant', 'ko', 'hi', 'ar', 'ar-EG',
];

function grab(pkg, name, loc) {
  let got;
  globalThis.Intl = { [name]: { __addLocaleData(...ds) { for (const d of ds) if (d.locale === loc || !got) got = d; } } };
  require(`@formatjs/${pkg}/locale-data/${loc}.js`);
  return got;
}

function numberData(d) {
  const x = d.data, n = x.numbers;
  const nu = x.nu[0];
  const pick = (o) => ({ [nu]: o[nu], ...(nu !== 'latn' ? { latn: o.latn } : {}) });
  return {
    nu,
    symbols: pick(n.symbols), decimal: pick(n.decimal), percent: pick(n.percent), currency: pick(n.currency),
    minimumGroupingDigits: n.minimumGroupingDigits ?? 1,
    currencies: x.currencies, units: x.units,
  };
}

function dateData(d) {
  const x = d.data;
  const formats = {};
  for (const [k, v] of Object.entries(x.formats.gregory)) if (/^[A-Za-z]+$/.test(k)) formats[k] = v;
  const tzn = {};
  for (const [k, v] of Object.entries(x.timeZoneName)) tzn[k] = v;
  return {
    am: x.am, pm: x.pm, dayPeriods: x.dayPeriods, dayPeriodRules: x.dayPeriodRules, weekday: x.weekday, era: x.era, month: x.month,
    timeZoneName: tzn, gmtFormat: x.gmtFormat, hourFormat: x.hourFormat, dateFormat: x.dateFormat, timeFormat: x.timeFormat,
    dateTimeFormat: x.dateTimeFormat, hourCycle: x.hourCycle, formats, intervalFormats: x.intervalFormats,
  };
}

function sorted(v) {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') {
    const o = {};
    for (const k of Object.keys(v).sort()) o[k] = sorted(v[k]);
    return o;
  }
  return v;
}

const out = { locales: {} };
for (const loc of LOCALES) {
  out.locales[loc] = {
    number: numberData(grab('intl-numberformat', 'NumberFormat', loc)),
    date: dateData(grab('intl-datetimeformat', 'DateTimeFormat', loc)),
    list: grab('intl-listformat', 'ListFormat', loc).data,
    relative: grab('intl-relativetimeformat', 'RelativeTimeFormat', loc).data,
  };
}
process.stdout.write(JSON.stringify(sorted(out)));
