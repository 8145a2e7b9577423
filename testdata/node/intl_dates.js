// Generated DateTimeFormat cases: dates x zones x options x the 18 locales.
const locales = ['en-US', 'en-GB', 'en-IN', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE', 'pl-PL',
  'ru-RU', 'tr-TR', 'ja-JP', 'zh-CN', 'ko-KR', 'hi-IN', 'ar-EG'];
const dates = [Date.UTC(2024, 0, 15, 9, 5, 7, 123), Date.UTC(2024, 6, 4, 23, 59, 59, 999), Date.UTC(1999, 11, 31, 0, 0, 0),
  Date.UTC(2024, 2, 10, 12, 0, 0)];
const zones = ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'Asia/Tokyo', 'Australia/Sydney'];
const options = [
  {}, { dateStyle: 'full' }, { dateStyle: 'long' }, { dateStyle: 'medium' }, { dateStyle: 'short' },
  { timeStyle: 'short' }, { timeStyle: 'medium' }, { dateStyle: 'medium', timeStyle: 'short' }, { dateStyle: 'full', timeStyle: 'long' },
  { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }, { month: 'short', day: 'numeric' },
  { year: 'numeric', month: '2-digit', day: '2-digit' }, { hour: '2-digit', minute: '2-digit' }, { hour: 'numeric', minute: '2-digit', hour12: true },
  { hour: 'numeric', minute: '2-digit', hour12: false }, { weekday: 'short' }, { month: 'long' }, { year: 'numeric', month: 'long' },
  { month: 'long', day: 'numeric' }, { hour: 'numeric' }, { weekday: 'short', hour: 'numeric', minute: 'numeric' },
  { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }, { timeZoneName: 'short' },
  { hour: 'numeric', minute: 'numeric', timeZoneName: 'long' }, { hour: 'numeric', minute: 'numeric', timeZoneName: 'shortOffset' },
  { era: 'short', year: 'numeric' }, { minute: '2-digit', second: '2-digit' }, { second: 'numeric', fractionalSecondDigits: 3 },
  { dayPeriod: 'short', hour: 'numeric' }, { year: '2-digit', month: 'narrow', day: 'numeric' }, { hourCycle: 'h23', hour: 'numeric', minute: 'numeric' },
];
const out = [];
for (const l of locales) {
  for (let oi = 0; oi < options.length; oi++) {
    for (const z of zones) {
      let f;
      try { f = new Intl.DateTimeFormat(l, { ...options[oi], timeZone: z }); } catch (e) { out.push([l + ' ' + oi + ' ' + z, 'throws ' + e.name]); continue; }
      for (const d of dates) out.push([l + ' ' + JSON.stringify(options[oi]) + ' ' + z + ' ' + new Date(d).toISOString(), f.format(d)]);
    }
    out.push([l + ' ' + JSON.stringify(options[oi]) + ' resolvedOptions', new Intl.DateTimeFormat(l, { ...options[oi], timeZone: 'Asia/Tokyo' }).resolvedOptions()]);
  }
  const d = new Date(dates[0]);
  out.push([l + ' toLocaleString', d.toLocaleString(l)], [l + ' toLocaleDateString', d.toLocaleDateString(l)], [l + ' toLocaleTimeString', d.toLocaleTimeString(l)]);
  out.push([l + ' parts', new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).formatToParts(d)]);
}
return out;
