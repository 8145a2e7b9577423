// Time zone names before 1970: ICU's (Node's) metazone mappings start on
// 1970-01-01, so an earlier date's names fall back to the location and GMT
// formats; local mean time offsets keep their seconds (GMT-4:56:02).
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
const dates = [Date.UTC(1850, 5, 1, 12), Date.UTC(1880, 0, 1, 12), Date.UTC(1900, 0, 1), Date.UTC(1944, 6, 1, 12), Date.UTC(1965, 6, 4, 12),
  Date.UTC(1969, 11, 31, 23), Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(1970, 0, 1), Date.UTC(1975, 6, 1), Date.UTC(2024, 0, 15)];
const zones = ['America/New_York', 'America/Chicago', 'America/Los_Angeles', 'Europe/Paris', 'Europe/London', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Tokyo', 'Australia/Sydney', 'Africa/Lagos', 'America/Sao_Paulo', 'UTC'];
for (const loc of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP']) {
  for (const tzn of ['short', 'long', 'shortGeneric', 'longGeneric', 'shortOffset', 'longOffset']) {
    for (const zone of zones) {
      t(loc + ' ' + tzn + ' ' + zone, () => dates.map((d) => new Intl.DateTimeFormat(loc, { timeZone: zone, timeZoneName: tzn, year: 'numeric' }).format(d)));
    }
  }
}
t('toLocaleString', () => new Date(Date.UTC(1965, 6, 4, 12)).toLocaleString('en-US', { timeZone: 'America/New_York', timeZoneName: 'short' }));
t('formatToParts', () => new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'long' }).formatToParts(Date.UTC(1883, 0, 1)).find((p) => p.type === 'timeZoneName'));
return out;
