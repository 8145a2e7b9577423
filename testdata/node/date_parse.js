// Date.parse and new Date(string): the ES format with range checks, then
// the legacy grammar. Generated fields around every boundary, plus the
// shapes programs write.
const out = [];
const add = (s) => { const d = new Date(s); out.push([s, Date.parse(s), isNaN(d) ? 'Invalid Date' : d.toISOString()]); };
const p2 = (n) => String(n).padStart(2, '0');
for (const y of ['1970', '2024', '2023', '0000', '9999', '+275760', '-271821', '+002024', '-000000']) {
  for (const m of [0, 1, 2, 12, 13]) {
    for (const d of [0, 1, 28, 29, 30, 31, 32]) {
      add(`${y}-${p2(m)}-${p2(d)}`);
      add(`${y}-${p2(m)}-${p2(d)}T00:00:00Z`);
    }
  }
}
for (const h of [0, 1, 23, 24, 25]) {
  for (const mi of [0, 59, 60]) {
    for (const s of [0, 59, 60]) {
      add(`2024-06-15T${p2(h)}:${p2(mi)}:${p2(s)}Z`);
      add(`2024-06-15T${p2(h)}:${p2(mi)}:${p2(s)}.000`);
      add(`2024-06-15 ${p2(h)}:${p2(mi)}:${p2(s)}`);
    }
  }
}
for (const tz of ['Z', 'z', '+00:00', '-05:30', '+0530', '+24:00', '+23:59', '-12', '+1', ' GMT', ' UTC', ' PST', ' EDT', ' GMT+0200', ' GMT-8', ' (UTC)']) {
  add('2024-06-15T10:20:30' + tz);
  add('Sat Jun 15 2024 10:20:30' + tz);
}
for (const ms of ['1', '12', '123', '1234', '1234567890', '']) add('2024-06-15T10:20:30.' + ms + 'Z');
for (const s of [
  '2024-02-30T25:00:00Z', '2024-13-01', '2024-1-5', '2024/01/15', '2024/02/30', 'January 15, 2024',
  'Jan 15 2024 10:00:00', '15 Jan 2024', 'Mon, 15 Jan 2024 10:00:00 GMT', '15-Jan-2024', 'Jan-15-2024',
  'Mon Jan 15 2024 10:00:00 GMT+0000 (Coordinated Universal Time)', 'invalid', '', '2024', '2024-01',
  '12/25/2024', '12/25/2024 3:45 PM', '12/25/2024 12:00 AM', '12/25/2024 13:00 PM', '1/2/03', 'Dec 25, 2024, 3:45:10 pm',
  '2024-01-15T10:30', '2024-01-15t10:30:00Z', 'Feb 30 2024', '1e3', '  2024-01-15', '2024-01-15T1:30:00Z',
  '99-01-01', '0', '12', '31', '32', '2024-01-15T10:30:00.Z', 'Tue Feb 30 2024', 'Thursday, March 7, 2024',
  'March 7th, 2024', '7 March 2024 14:05', '2024-03-07 14:05:06.789', '2024-03-07T14:05:06+01:00[Europe/Paris]',
  '20240307', '2024-03-07T14:05:06.789123Z', 'Wed, 09 Jun 2021 10:18:14 GMT', 'June 2024', '2024 June 5',
  '5 June', 'noon', 'today', '2024-03-07 noon', '10:00', '2024.03.07', '07.03.2024', 'Sun Jan 01 00:00:00 2023',
  '2024-06-15T10:20:30+05', '2024-06-15 10:20:30 +0200', '2024-06-15 10:20:30 -07:00', '(comment) Jan 5 2024',
  'Jan 5 2024 (nested (comment))', 'Jan 5 2024 10:00 am', 'Jan 5 2024 0:00 am', 'Jan 5 2024 12:30 pm',
]) add(s);
return out;
