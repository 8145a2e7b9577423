// How a date and a time requested together are joined: as ICU's
// DateTimePatternGenerator, by the month's width (a long month: the long
// glue, or the full one with any weekday; a short month: medium; a
// narrow or numeric month: short), so "J 4, 3:30 PM", not "J 4 at 3:30 PM".
const d = Date.UTC(2024, 6, 4, 15, 30);
const out = [];
for (const loc of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'en-IN', 'ko-KR', 'pt-BR', 'zh-CN']) {
  for (const month of ['narrow', 'short', 'long', 'numeric', '2-digit']) {
    for (const weekday of [undefined, 'narrow', 'short', 'long']) {
      for (const year of [undefined, 'numeric']) {
        const o = { timeZone: 'UTC', month, day: 'numeric', hour: 'numeric', minute: '2-digit' };
        if (weekday) o.weekday = weekday;
        if (year) o.year = year;
        out.push([[loc, month, weekday || '-', year || '-'].join(' '), new Intl.DateTimeFormat(loc, o).format(d)]);
      }
    }
  }
}
return out;
