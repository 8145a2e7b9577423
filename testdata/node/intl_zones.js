// Generated time zone name cases: the six timeZoneName styles x zones x
// dates (winter, summer, a date when some zones used another metazone) x
// the 18 locales, and the generic styles with other fields.
const locales = ['en-US', 'en-GB', 'en-IN', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE', 'pl-PL',
  'ru-RU', 'tr-TR', 'ja-JP', 'zh-CN', 'ko-KR', 'hi-IN', 'ar-EG'];
const zones = ['UTC', 'Etc/GMT+5', '+05:30', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix',
  'America/Los_Angeles', 'America/Anchorage', 'Pacific/Honolulu', 'America/Toronto', 'America/Vancouver', 'America/Mexico_City',
  'America/Sao_Paulo', 'America/Argentina/Buenos_Aires', 'America/Bogota', 'America/Indiana/Knox', 'America/Indiana/Petersburg',
  'Europe/London', 'Europe/Dublin', 'Europe/Lisbon', 'Europe/Paris', 'Europe/Berlin', 'Europe/Madrid', 'Europe/Rome',
  'Europe/Amsterdam', 'Europe/Stockholm', 'Europe/Warsaw', 'Europe/Istanbul', 'Europe/Moscow', 'Europe/Kyiv', 'Africa/Cairo',
  'Africa/Johannesburg', 'Africa/Lagos', 'Asia/Dubai', 'Asia/Kolkata', 'Asia/Calcutta', 'Asia/Kathmandu', 'Asia/Shanghai',
  'Asia/Hong_Kong', 'Asia/Tokyo', 'Asia/Seoul', 'Asia/Singapore', 'Asia/Jakarta', 'Australia/Sydney', 'Australia/Perth',
  'Australia/Adelaide', 'Pacific/Auckland', 'Antarctica/Troll', 'US/Eastern'];
const dates = [Date.UTC(2024, 0, 15, 12), Date.UTC(2024, 6, 4, 12), Date.UTC(2005, 2, 1, 12)];
const styles = ['shortGeneric', 'longGeneric', 'shortOffset', 'longOffset', 'short', 'long'];
const out = [];
for (const l of locales) {
  for (const z of zones) {
    for (const s of styles) {
      const f = new Intl.DateTimeFormat(l, { timeZone: z, timeZoneName: s });
      out.push([l + ' ' + z + ' ' + s, dates.map((d) => f.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value)]);
    }
  }
  for (const s of ['shortGeneric', 'longGeneric']) {
    const f = new Intl.DateTimeFormat(l, { timeZone: 'America/Los_Angeles', hour: 'numeric', minute: '2-digit', timeZoneName: s });
    out.push([l + ' time ' + s, f.format(dates[0]), f.formatToParts(dates[1]), f.resolvedOptions().timeZoneName]);
    const g = new Intl.DateTimeFormat(l, { timeZone: 'Europe/Berlin', year: 'numeric', month: 'short', day: 'numeric', timeZoneName: s });
    out.push([l + ' date ' + s, g.format(dates[0]), g.formatRange(dates[0], dates[1])]);
  }
}
return out;
