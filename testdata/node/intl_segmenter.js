// Intl.Segmenter: grapheme, word and sentence boundaries over a set of
// strings (ASCII prose, emoji ZWJ sequences, flags, combining marks, CJK,
// Thai, lone surrogates), containing(), the iterator protocol and errors.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
const texts = {
  prose: 'The quick brown fox, aged 3.5 years, jumped! Did it? Yes... "Really." Mr. Smith paid $4.99 (tax incl.) on 2024-04-15.',
  contractions: "Don't stop; it's John's e-mail: john.doe@example.com, see https://example.com/a_b?c=1.",
  numbers: '1,234.56 and 7.5% of 3:30pm, v1.2.3, #hashtag @user foo_bar',
  zwj: 'Family: 👨‍👩‍👧‍👦 and 👩🏽‍💻 and 🏳️‍🌈 ok',
  flags: '🇺🇸🇬🇧🇯🇵 flags 🇩🇪!',
  skin: '👍🏻👍🏿 ✋🏽 ❤️ 1️⃣ #️⃣',
  combining: 'e\u0301 a\u0308\u0323 n\u0303o Zalgo: Z\u0351\u036b\u0343\u036a a\u0308',
  hangul: '한국어 텍스트 \u1100\u1161\u11a8 분리',
  cjk: '我爱北京天安门。今天天气很好！',
  japanese: '日本語のテキストです。カタカナとひらがな。',
  thai: 'ภาษาไทยง่ายนิดเดียว',
  devanagari: 'नमस्ते दुनिया। क्षत्रिय',
  arabic: 'مرحبا بالعالم. كيف حالك؟',
  newlines: 'Line one.\nLine two\r\nThird line.\n\nNew para',
  crlf: 'a\r\nb\rc\nd',
  empty: '',
  space: '   ',
  lone: 'a\ud800b\udc00c',
  mixed: 'Café résumé naïve — “quotes” ‘single’ … end.',
  cyrillic: 'Привет, мир! Как дела? Всё хорошо.',
  greek: 'Γειά σου κόσμε. Τι κάνεις;',
};
const plain = (s) => s.map((x) => x.segment);
for (const [name, text] of Object.entries(texts)) {
  for (const g of ['grapheme', 'word', 'sentence']) {
    t(name + ' ' + g, () => {
      const segs = [...new Intl.Segmenter('en', { granularity: g }).segment(text)];
      return g === 'word' ? segs.map((x) => [x.segment, x.index, x.isWordLike]) : segs.map((x) => [x.segment, x.index]);
    });
  }
}
t('data shape', () => { const s = [...new Intl.Segmenter('en', { granularity: 'word' }).segment('Hi there')][0]; return [Object.keys(s), s]; });
t('grapheme data shape', () => { const s = [...new Intl.Segmenter().segment('ab')][1]; return [Object.keys(s), s]; });
t('containing', () => {
  const segs = new Intl.Segmenter('en', { granularity: 'word' }).segment('Hello, world 👋🏽!');
  return [-1, 0, 3, 5, 6, 7, 12, 13, 14, 15, 16, 100, 1.7, NaN, '7', undefined].map((i) => segs.containing(i));
});
t('containing grapheme', () => { const segs = new Intl.Segmenter().segment('🇺🇸e\u0301x'); return [0, 1, 2, 3, 4, 5].map((i) => segs.containing(i)); });
t('containing empty', () => new Intl.Segmenter().segment('').containing(0));
t('iterate twice', () => { const segs = new Intl.Segmenter().segment('abc'); return [[...segs].length, [...segs].length]; });
t('iterator protocol', () => {
  const it = new Intl.Segmenter().segment('ab')[Symbol.iterator]();
  return [Object.prototype.toString.call(it), it.next(), it.next(), it.next(), typeof it[Symbol.iterator], it[Symbol.iterator]() === it];
});
t('segments toString', () => Object.prototype.toString.call(new Intl.Segmenter().segment('x')));
t('toStringTag', () => Object.prototype.toString.call(new Intl.Segmenter()));
t('resolvedOptions default', () => new Intl.Segmenter().resolvedOptions());
t('resolvedOptions word de', () => new Intl.Segmenter('de-DE', { granularity: 'word' }).resolvedOptions());
t('resolvedOptions ja sentence', () => new Intl.Segmenter(['ja-JP', 'en'], { granularity: 'sentence' }).resolvedOptions());
t('resolvedOptions fallback', () => new Intl.Segmenter('xx').resolvedOptions());
t('bad granularity', () => new Intl.Segmenter('en', { granularity: 'line' }));
t('no new', () => Intl.Segmenter());
t('segment non-string', () => plain([...new Intl.Segmenter('en', { granularity: 'word' }).segment(12.5)]));
t('segment undefined', () => plain([...new Intl.Segmenter().segment()]));
t('bad receiver', () => Intl.Segmenter.prototype.segment.call({}, 'x'));
t('supportedLocalesOf', () => Intl.Segmenter.supportedLocalesOf(['en-US', 'fr', 'xx']));
t('word count', () => [...new Intl.Segmenter('en', { granularity: 'word' }).segment(texts.prose)].filter((s) => s.isWordLike).length);
t('grapheme count', () => [...new Intl.Segmenter().segment(texts.zwj + texts.flags + texts.skin)].length);
t('length', () => [Intl.Segmenter.length, Intl.Segmenter.name, typeof Intl.Segmenter.prototype.segment]);
t('over the request cap', () => [...new Intl.Segmenter().segment('a'.repeat(2 << 20))].length);
return out;
