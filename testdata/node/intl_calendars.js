// Generated non-Gregorian calendar cases: the calendars modebox computes x
// option sets x dates x the 18 locales, their arithmetic over two
// centuries, resolvedOptions with the option and the -u-ca- keyword, and
// the calendars that fall back (listed in DIFFERENCES).
const locales = ['en-US', 'en-GB', 'en-IN', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE', 'pl-PL',
  'ru-RU', 'tr-TR', 'ja-JP', 'zh-CN', 'ko-KR', 'hi-IN', 'ar-EG'];
const calendars = ['buddhist', 'japanese', 'roc', 'persian', 'indian', 'coptic', 'ethiopic', 'ethioaa', 'islamic-civil',
  'islamic-tbla', 'hebrew', 'islamic', 'islamic-rgsa', 'chinese', 'dangi', 'gregory'];
const dates = [Date.UTC(2024, 0, 15, 9), Date.UTC(1999, 11, 31, 18), Date.UTC(1989, 0, 7, 12), Date.UTC(2019, 4, 1, 12),
  Date.UTC(2024, 2, 20, 12), Date.UTC(2023, 8, 11, 12)];
const options = [{}, { dateStyle: 'full' }, { dateStyle: 'long' }, { dateStyle: 'medium' }, { dateStyle: 'short' },
  { year: 'numeric', month: 'long' }, { era: 'short', year: 'numeric', month: 'short', day: 'numeric' }, { month: 'long', day: 'numeric' },
  { weekday: 'short', year: 'numeric', month: 'numeric', day: 'numeric' }, { dateStyle: 'medium', timeStyle: 'short' }];
const out = [];
for (const l of locales) {
  for (const c of calendars) {
    for (let oi = 0; oi < options.length; oi++) {
      const f = new Intl.DateTimeFormat(l, { ...options[oi], calendar: c, timeZone: 'UTC' });
      out.push([l + ' ' + c + ' ' + JSON.stringify(options[oi]), dates.map((d) => f.format(d))]);
    }
    const r = new Intl.DateTimeFormat(l + '-u-ca-' + c, { timeZone: 'UTC' });
    out.push([l + ' ' + c + ' -u-ca- resolvedOptions', r.resolvedOptions(), r.formatToParts(dates[0])]);
    out.push([l + ' ' + c + ' option resolvedOptions', new Intl.DateTimeFormat(l, { calendar: c }).resolvedOptions()]);
    out.push([l + ' ' + c + ' toLocaleDateString', new Date(dates[0]).toLocaleDateString(l + '-u-ca-' + c, { timeZone: 'UTC' })]);
  }
}
// the arithmetic: era, year, month, day of every 37th day over two
// centuries, and of every day of two years (new years, leap months)
const ymd = { year: 'numeric', month: 'numeric', day: 'numeric', era: 'short', timeZone: 'UTC' };
const num = (f, d) => f.formatToParts(d).filter((p) => p.type !== 'literal' && p.type !== 'era').map((p) => p.value).join(' ');
for (const c of calendars) {
  const f = new Intl.DateTimeFormat('en-US', { ...ymd, calendar: c });
  for (let d = Date.UTC(1900, 0, 1); d < Date.UTC(2100, 0, 1); d += 37 * 86400000) out.push([c + ' ' + new Date(d).toISOString().slice(0, 10), num(f, d)]);
}
for (const c of ['hebrew', 'persian', 'coptic', 'ethiopic', 'indian', 'islamic-civil']) {
  const f = new Intl.DateTimeFormat('en-US', { ...ymd, calendar: c });
  for (let d = Date.UTC(2023, 0, 1); d < Date.UTC(2025, 0, 1); d += 86400000) out.push([c + ' day ' + new Date(d).toISOString().slice(0, 10), num(f, d)]);
}
// the astronomical calendars over 1900-2100, month by month: each month's
// first day, its name (related year or year, month with "bis" for a leap
// month) and its length (the day 29 days on is its 30th, or the next
// month's 1st), by Gregorian year; within a month the days count up from
// the first, so this fixes every day of the two centuries
for (const c of ['chinese', 'dangi', 'islamic', 'islamic-rgsa']) {
  const f = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'numeric', day: 'numeric', timeZone: 'UTC', calendar: c });
  const at = (d) => {
    const p = {};
    for (const x of f.formatToParts(d + 43200000)) p[x.type] = x.value;
    return [p.relatedYear || p.year, p.month, +p.day];
  };
  const day = 86400000;
  let start = Date.UTC(1900, 0, 1) - (at(Date.UTC(1900, 0, 1))[2] - 1) * day, year = 0, list = [];
  while (start < Date.UTC(2101, 0, 1)) {
    const iso = new Date(start).toISOString();
    if (+iso.slice(0, 4) !== year) {
      if (list.length) out.push([c + ' months ' + year, list.join(' ')]);
      year = +iso.slice(0, 4); list = [];
    }
    const v = at(start), w = at(start + 29 * day);
    const len = w[2] === 30 ? 30 : 29;
    list.push(iso.slice(5, 10) + '=' + v.join('/') + ':' + len + (w[2] === 30 || w[2] === 1 ? '' : '!' + w.join('/')));
    start += len * day;
  }
  out.push([c + ' months ' + year, list.join(' ')]);
}
// the lunisolar calendars' fields in formatToParts: relatedYear, yearName,
// leap months, across the locales and the option sets
const lunar = [Date.UTC(2023, 2, 22, 12), Date.UTC(2023, 3, 19, 12), Date.UTC(2020, 4, 23, 12), Date.UTC(2033, 11, 22, 12),
  Date.UTC(1984, 1, 2, 12), Date.UTC(2024, 1, 10, 12)];
for (const l of locales) {
  for (const c of ['chinese', 'dangi']) {
    for (let oi = 0; oi < options.length; oi++) {
      const f = new Intl.DateTimeFormat(l, { ...options[oi], calendar: c, timeZone: 'UTC' });
      out.push([l + ' ' + c + ' parts ' + JSON.stringify(options[oi]), lunar.map((d) => f.formatToParts(d))]);
    }
  }
}
// option checks
const t = (k, fn) => { try { out.push([k, fn()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
t('invalid calendar', () => new Intl.DateTimeFormat('en', { calendar: 'gregorian' }).resolvedOptions().calendar);
t('invalid calendar 2', () => new Intl.DateTimeFormat('en', { calendar: 'x' }).resolvedOptions().calendar);
t('unknown calendar', () => new Intl.DateTimeFormat('en', { calendar: 'foo' }).resolvedOptions());
t('unknown -u-ca-', () => new Intl.DateTimeFormat('en-u-ca-foo').resolvedOptions());
t('option over -u-ca-', () => new Intl.DateTimeFormat('en-u-ca-buddhist', { calendar: 'japanese' }).resolvedOptions());
t('alias ethiopic-amete-alem', () => new Intl.DateTimeFormat('en', { calendar: 'ethiopic-amete-alem' }).resolvedOptions().calendar);
t('alias -u-ca-islamicc', () => new Intl.DateTimeFormat('en-u-ca-islamicc').resolvedOptions());
t('upper case', () => new Intl.DateTimeFormat('en', { calendar: 'BUDDHIST' }).resolvedOptions().calendar);
t('Locale calendar', () => new Intl.Locale('th-u-ca-buddhist').calendar);
// the calendars that fall back (DIFFERENCES)
for (const c of ['islamic-umalqura', 'iso8601']) {
  const f = new Intl.DateTimeFormat('en-US', { calendar: c, dateStyle: 'long', timeZone: 'UTC' });
  out.push(['fallback ' + c, f.resolvedOptions().calendar, f.format(dates[0])]);
  out.push(['fallback locale ' + c, new Intl.DateTimeFormat('en-US-u-ca-' + c).resolvedOptions().locale,
    new Intl.DateTimeFormat('de-u-ca-' + c, { calendar: c }).resolvedOptions().locale]);
}
return out;
