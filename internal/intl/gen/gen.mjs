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
  return {
    timeZoneName: x.timeZoneName, hourCycle: x.hourCycle, hourCycle12: x.hourCycle12, hourCycle24: x.hourCycle24,
    dayPeriodRules: x.dayPeriodRules,
  };
}

// The Gregorian calendar straight from the Unicode CLDR JSON (the version
// Node 22's ICU uses): names in both contexts, the patterns, atTime.
function gregorian(loc) {
  const j = require(`cldr-dates-full/main/${loc}/ca-gregorian.json`);
  const g = Object.values(j.main)[0].dates.calendars.gregorian;
  return {
    months: g.months, days: g.days, dayPeriods: g.dayPeriods, eras: g.eras, dateFormats: g.dateFormats,
    timeFormats: g.timeFormats, dateTimeFormats: g.dateTimeFormats, atTime: g['dateTimeFormats-atTime'].standard,
    zone: zoneFormats(loc),
  };
}

function zoneFormats(loc) {
  const j = require(`cldr-dates-full/main/${loc}/timeZoneNames.json`);
  const t = Object.values(j.main)[0].dates.timeZoneNames;
  return { hourFormat: t.hourFormat, gmtFormat: t.gmtFormat, gmtZeroFormat: t.gmtZeroFormat, utc: t.zone?.Etc?.UTC };
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
    gregorian: gregorian(loc),
    list: grab('intl-listformat', 'ListFormat', loc).data,
    relative: grab('intl-relativetimeformat', 'RelativeTimeFormat', loc).data,
  };
}
process.stdout.write(JSON.stringify(sorted(out)));
