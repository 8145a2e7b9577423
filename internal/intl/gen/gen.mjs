// Reads FormatJS's CLDR locale data for the locales modebox ships and
// prints one JSON document: {locales: {tag: {number, date, list, relative}},
// plurals: {tag: ...}, names: {table: {tag: display names}}}.
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

// CLDR 48's compact patterns ("1000-count-one", and the exact "-count-1")
// as {"1000": {"one": ..., "=1": ...}}.
function compact(obj) {
  if (!obj) return undefined;
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    const m = /^(\d+)-count-(.+)$/.exec(k);
    if (!m) continue;
    const cat = /^\d+$/.test(m[2]) ? '=' + m[2] : m[2];
    (out[m[1]] ||= {})[cat] = v;
  }
  return out;
}

function cldrNumbers(loc, nu) {
  const n = Object.values(require(`cldr-numbers-full/main/${loc}/numbers.json`).main)[0].numbers;
  const c = Object.values(require(`cldr-numbers-full/main/${loc}/currencies.json`).main)[0].numbers.currencies;
  const dec = n[`decimalFormats-numberSystem-${nu}`] || n['decimalFormats-numberSystem-latn'];
  const cur = n[`currencyFormats-numberSystem-${nu}`] || n['currencyFormats-numberSystem-latn'];
  const currencies = {};
  for (const [code, v] of Object.entries(c)) {
    const displayName = {};
    for (const [k, s] of Object.entries(v)) {
      const m = /^displayName-count-(.+)$/.exec(k);
      if (m) displayName[m[1]] = s;
    }
    if (v.displayName && !displayName.other) displayName.other = v.displayName;
    currencies[code] = { displayName, symbol: v.symbol, narrow: v['symbol-alt-narrow'] || v.symbol };
  }
  return { long: compact(dec.long?.decimalFormat), short: compact(dec.short?.decimalFormat), currencyShort: compact(cur.short?.standard), currencies };
}

// CLDR 48's unit patterns in FormatJS's shape: simple[unit][width][plural],
// perUnit[width], and the compound "per" pattern.
function cldrUnits(loc) {
  const u = Object.values(require(`cldr-units-full/main/${loc}/units.json`).main)[0].units;
  const simple = {}, compound = { per: {} };
  for (const width of ['long', 'short', 'narrow']) {
    for (const [k, v] of Object.entries(u[width])) {
      if (k === 'per') { compound.per[width] = v.compoundUnitPattern; continue; }
      const m = /^[a-z]+-(.+)$/.exec(k);
      if (!m || typeof v !== 'object') continue;
      const name = m[1];
      const e = (simple[name] ||= { long: {}, short: {}, narrow: {}, perUnit: {} });
      for (const [pk, pv] of Object.entries(v)) {
        const c = /^unitPattern-count-(.+)$/.exec(pk);
        if (c) e[width][c[1]] = pv;
      }
      if (v.perUnitPattern) e.perUnit[width] = v.perUnitPattern;
    }
  }
  return { simple, compound };
}

// Numbers straight from the CLDR 48 JSON: symbols, patterns (with the
// alphaNextToNumber and noCurrency variants), compact forms, names.
function numberData(d) {
  const loc = d.locale;
  const n = Object.values(require(`cldr-numbers-full/main/${loc}/numbers.json`).main)[0].numbers;
  const nu = n.defaultNumberingSystem;
  const c = cldrNumbers(loc, nu);
  const systems = nu === 'latn' ? ['latn'] : [nu, 'latn'];
  const symbols = {}, decimal = {}, percent = {}, currency = {};
  for (const s of systems) {
    symbols[s] = n[`symbols-numberSystem-${s}`];
    const dec = n[`decimalFormats-numberSystem-${s}`];
    decimal[s] = { standard: dec.standard, long: compact(dec.long?.decimalFormat), short: compact(dec.short?.decimalFormat) };
    percent[s] = n[`percentFormats-numberSystem-${s}`].standard;
    const cur = n[`currencyFormats-numberSystem-${s}`];
    currency[s] = {
      standard: cur.standard, accounting: cur.accounting,
      alphaStandard: cur['standard-alphaNextToNumber'], alphaAccounting: cur['accounting-alphaNextToNumber'],
      noCurrency: cur['standard-noCurrency'],
      currencySpacing: { afterInsertBetween: cur.currencySpacing.afterCurrency.insertBetween, beforeInsertBetween: cur.currencySpacing.beforeCurrency.insertBetween },
      short: compact(cur.short?.standard), unitPattern: cur['unitPattern-count-other'],
    };
  }
  return {
    nu, symbols, decimal, percent, currency,
    minimumGroupingDigits: +n.minimumGroupingDigits || 1,
    currencies: c.currencies, units: cldrUnits(loc),
  };
}

function dateData(d) {
  const x = d.data;
  return {
    hourCycle: x.hourCycle, hourCycle12: x.hourCycle12, hourCycle24: x.hourCycle24,
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
  return { hourFormat: t.hourFormat, gmtFormat: t.gmtFormat, gmtZeroFormat: t.gmtZeroFormat };
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

// CLDR 48 plural rules, cardinal and ordinal, by language.
const pl = require('cldr-core/supplemental/plurals.json').supplemental['plurals-type-cardinal'];
const ord = require('cldr-core/supplemental/ordinals.json').supplemental['plurals-type-ordinal'];
const strip = (rules) => {
  const o = {};
  for (const [k, v] of Object.entries(rules || {})) o[k.replace('pluralRule-count-', '')] = v.split('@')[0].trim();
  return o;
};
const out = { locales: {}, plurals: {} };
for (const loc of LOCALES) {
  const lang = loc.split('-')[0];
  const key = pl[loc] ? loc : lang;
  out.plurals[loc] = { cardinal: strip(pl[key] || pl[lang]), ordinal: strip(ord[key] || ord[lang]) };
}
// Display names (Intl.DisplayNames) from the CLDR 48 localenames, and the
// currency names of cldr-numbers-full: each table's names, and the
// "-alt-short" variants apart; the locale display pattern and separator;
// calendar names, and the date fields' names (long, short, narrow) of
// cldr-dates-full.
function displayNames(loc) {
  const ldn = (file) => Object.values(require(`cldr-localenames-full/main/${loc}/${file}.json`).main)[0].localeDisplayNames;
  const split = (table) => {
    const long = {}, short = {};
    for (const [k, v] of Object.entries(table || {})) {
      if (k.endsWith('-alt-short')) short[k.slice(0, -'-alt-short'.length)] = v;
      else if (!k.includes('-alt-')) long[k] = v;
    }
    return { long, short };
  };
  const c = Object.values(require(`cldr-numbers-full/main/${loc}/currencies.json`).main)[0].numbers.currencies;
  const currency = {};
  for (const [code, v] of Object.entries(c)) if (v.displayName) currency[code] = v.displayName;
  const p = ldn('localeDisplayNames').localeDisplayPattern;
  const calendar = {};
  for (const [k, v] of Object.entries(ldn('localeDisplayNames').types.calendar)) if (!k.includes('-alt-')) calendar[k] = v;
  const fields = Object.values(require(`cldr-dates-full/main/${loc}/dateFields.json`).main)[0].dates.fields;
  const dateField = {};
  for (const f of ['era', 'year', 'quarter', 'month', 'week', 'weekday', 'day', 'dayperiod', 'hour', 'minute', 'second', 'zone']) {
    dateField[f] = ['', '-short', '-narrow'].map((w) => fields[f + w]?.displayName);
  }
  return {
    language: split(ldn('languages').languages), region: split(ldn('territories').territories),
    script: split(ldn('scripts').scripts), variant: split(ldn('variants').variants).long, currency, calendar, dateField,
    pattern: p.localePattern, separator: p.localeSeparator,
  };
}
// by table, then locale: a locale's tables sit beside its neighbours'
// (en, en-001, en-AU, ...), within gzip's window of each other
out.names = {};
for (const loc of LOCALES) for (const [table, v] of Object.entries(displayNames(loc))) (out.names[table] ||= {})[loc] = v;
for (const loc of LOCALES) {
  out.locales[loc] = {
    number: numberData(grab('intl-numberformat', 'NumberFormat', loc)),
    date: dateData(grab('intl-datetimeformat', 'DateTimeFormat', loc)),
    gregorian: gregorian(loc),
    list: grab('intl-listformat', 'ListFormat', loc).data,
    relative: grab('intl-relativetimeformat', 'RelativeTimeFormat', loc).data,
  };
}
// Time zone names for the generic ('v'/'vvvv') formats, as ICU's
// TimeZoneGenericNames builds them: which metazone a zone uses when
// (metaZones.json), each metazone's reference ("golden") zone by region, a
// zone's region (windowsZones.json, else its BCP 47 id's region) and whether
// it is its region's primary zone (the only one, or primaryZones.json), the
// IANA aliases of each CLDR canonical id (cldr-bcp47), and per locale the
// long/short generic and standard names of metazones and zones, exemplar
// cities and the region and fallback formats.
function zoneData() {
  const mz = require('cldr-core/supplemental/metaZones.json').supplemental.metaZones;
  const ms = (s) => (s ? Date.parse(s.replace(' ', 'T') + ':00Z') : null);
  const meta = {};
  const walk = (o, p) => {
    for (const [k, v] of Object.entries(o)) {
      if (Array.isArray(v)) meta[p + k] = v.map((e) => [e.usesMetazone._mzone, ms(e.usesMetazone._from), ms(e.usesMetazone._to)]);
      else walk(v, p + k + '/');
    }
  };
  walk(mz.metazoneInfo.timezone, '');
  const golden = {};
  for (const { mapZone: z } of mz.metazones) (golden[z._other] ||= {})[z._territory] = z._type;
  const win = {};
  for (const { mapZone: z } of require('cldr-core/supplemental/windowsZones.json').supplemental.windowsZones.mapTimezones) {
    if (z._territory === '001' || z._territory === 'ZZ') continue;
    for (const id of z._type.split(' ')) win[id] = z._territory;
  }
  const tz = require('cldr-bcp47/bcp47/timezone.json').keyword.u.tz;
  const alias = {}, country = {}, count = {};
  for (const [key, v] of Object.entries(tz)) {
    if (key.startsWith('_') || v._deprecated || !v._alias) continue;
    const ids = v._alias.split(' ');
    const canon = ids[0];
    for (const id of ids.slice(1)) alias[id] = canon;
    let cc = ids.map((id) => win[id]).find(Boolean);
    if (!cc && !/^(utc|gmt|unk)/.test(key) && !canon.startsWith('Etc/')) cc = key.slice(0, 2).toUpperCase();
    if (cc) { country[canon] = cc; count[cc] = (count[cc] || 0) + 1; }
  }
  const primaryZones = require('cldr-core/supplemental/primaryZones.json').supplemental.primaryZones;
  const primary = {};
  for (const [id, cc] of Object.entries(country)) if (count[cc] === 1 || primaryZones[cc] === id) primary[id] = 1;
  return { meta, golden, alias, country, primary };
}

// A locale's zone names: [long generic, long standard, long daylight,
// short generic, short standard, short daylight].
function zoneNames(loc) {
  const t = Object.values(require(`cldr-dates-full/main/${loc}/timeZoneNames.json`).main)[0].dates.timeZoneNames;
  const six = (v) => {
    const a = [v.long?.generic, v.long?.standard, v.long?.daylight, v.short?.generic, v.short?.standard, v.short?.daylight].map((x) => x || '');
    return a.some(Boolean) ? a : undefined;
  };
  const metazone = {};
  for (const [k, v] of Object.entries(t.metazone || {})) { const a = six(v); if (a) metazone[k] = a; }
  const zone = {}, city = {};
  const walk = (o, p) => {
    for (const [k, v] of Object.entries(o)) {
      if (v._type === 'zone') {
        const a = six(v);
        if (a) zone[p + k] = a;
        if (v.exemplarCity) city[p + k] = v.exemplarCity;
      } else walk(v, p + k + '/');
    }
  };
  walk(t.zone || {}, '');
  return { region: t.regionFormat, fallback: t.fallbackFormat, metazone, zone, city };
}
out.zones = zoneData();
out.zoneNames = {};
for (const loc of LOCALES) out.zoneNames[loc] = zoneNames(loc);
// Non-Gregorian calendars (the calendar option and -u-ca-): each
// calendar's month and era names and its patterns from the cldr-cal-*
// packages (the newest versions the registry serves; pinned by the lock
// file), and the Japanese eras' start dates from cldr-core. Days, day
// periods, times and zones stay the Gregorian calendar's.
const CALENDARS = {
  buddhist: ['cldr-cal-buddhist-full', 'buddhist'], japanese: ['cldr-cal-japanese-full', 'japanese'],
  roc: ['cldr-cal-roc-full', 'roc'], persian: ['cldr-cal-persian-full', 'persian'], indian: ['cldr-cal-indian-full', 'indian'],
  coptic: ['cldr-cal-coptic-full', 'coptic'], ethiopic: ['cldr-cal-ethiopic-full', 'ethiopic'],
  ethioaa: ['cldr-cal-ethiopic-full', 'ethiopic-amete-alem'],
  'islamic-civil': ['cldr-cal-islamic-full', 'islamic-civil'], 'islamic-tbla': ['cldr-cal-islamic-full', 'islamic-tbla'],
  hebrew: ['cldr-cal-hebrew-full', 'hebrew'],
  islamic: ['cldr-cal-islamic-full', 'islamic'],
  chinese: ['cldr-cal-chinese-full', 'chinese'], dangi: ['cldr-cal-dangi-full', 'dangi'],
};
const value = (v) => (v && typeof v === 'object' && '_value' in v ? v._value : v);
const values = (o) => (o ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, value(v)])) : o);
function calendarData(loc, pkg, type) {
  let c;
  try {
    c = Object.values(require(`${pkg}/main/${loc}/ca-${type}.json`).main)[0].dates.calendars[type];
  } catch {
    return undefined;
  }
  const dtf = c.dateTimeFormats || {};
  return {
    months: c.months, eras: c.eras, dateFormats: values(c.dateFormats),
    // the lunisolar calendars' leap-month patterns and cyclic year names
    monthPatterns: c.monthPatterns, yearNames: c.cyclicNameSets?.years,
    // a date pattern's numbering override ("hanidec", "d=hanidays")
    dateNumbers: c.dateFormats && Object.fromEntries(Object.entries(c.dateFormats).filter(([, v]) => v?._numbers).map(([k, v]) => [k, v._numbers])),
    dateTimeFormats: {
      full: value(dtf.full), long: value(dtf.long), medium: value(dtf.medium), short: value(dtf.short),
      availableFormats: values(dtf.availableFormats), intervalFormats: dtf.intervalFormats, appendItems: dtf.appendItems,
    },
  };
}
out.calendars = {};
for (const loc of LOCALES) {
  const m = { generic: calendarData(loc, 'cldr-dates-full', 'generic') };
  for (const [name, [pkg, type]] of Object.entries(CALENDARS)) {
    const d = calendarData(loc, pkg, type);
    if (d) m[name] = d;
  }
  out.calendars[loc] = m;
}
const cd = require('cldr-core/supplemental/calendarData.json').supplemental.calendarData;
out.japaneseEras = Object.entries(cd.japanese.eras).map(([k, v]) => [+k, v._start]).sort((a, b) => a[0] - b[0]).map((e) => e[1]);
process.stdout.write(JSON.stringify(sorted(out)));
