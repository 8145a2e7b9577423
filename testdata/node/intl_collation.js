// Generated Collator cases: a word list sorted and compared across
// locales and sensitivities.
const locales = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'sv-SE', 'pl-PL', 'ru-RU', 'tr-TR',
  'ja-JP', 'zh-CN', 'ko-KR', 'hi-IN', 'ar-EG', 'en-IN'];
const words = ['apple', 'Apple', 'APPLE', 'äpple', 'Äpfel', 'banana', 'Banana', 'cote', 'côte', 'coté', 'côté', 'résumé', 'resume',
  'Resume', 'naïve', 'naive', 'zebra', 'Zebra', 'Ångström', 'angstrom', 'øre', 'ore', 'Ørsted', 'ćma', 'cma', 'łódź', 'lodz',
  'İstanbul', 'istanbul', 'Istanbul', 'ıslak', 'straße', 'strasse', 'item2', 'item10', 'item1', 'a-b', 'ab', 'a b', 'a_b',
  '10', '9', '100', 'Москва', 'москва', 'ёж', 'еж', '東京', 'とうきょう', 'トウキョウ', '서울', '北京', 'मुंबई', 'القاهرة', 'ch', 'cz', 'ñu', 'nu',
  '', ' ', 'ä', 'a', 'ae', 'ß', 'ss', 'ǆ', 'dž', 'ﬁ', 'fi', 'Ａ', 'A'];
const out = [];
const opts = [{}, { sensitivity: 'base' }, { sensitivity: 'accent' }, { sensitivity: 'case' }, { numeric: true }, { caseFirst: 'upper' }, { ignorePunctuation: true }];
for (const l of locales) {
  for (const o of opts) {
    const c = new Intl.Collator(l, o);
    out.push([l + ' ' + JSON.stringify(o) + ' sort', words.slice().sort(c.compare).join('|')]);
    const cmps = [];
    for (let i = 0; i + 1 < words.length; i++) cmps.push(c.compare(words[i], words[i + 1]));
    out.push([l + ' ' + JSON.stringify(o) + ' compare', cmps.join(',')]);
    out.push([l + ' ' + JSON.stringify(o) + ' resolvedOptions', c.resolvedOptions()]);
  }
  out.push([l + ' localeCompare', 'a'.localeCompare('B', l), 'ä'.localeCompare('z', l)]);
}
return out;
