// Numbers at their extremes (extremes.js): BigInts past the range of a
// double format exactly (they were "∞"), numeric strings past it are
// infinite, and timers past 2^31-1 ms fire after 1 ms, in their order.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
const en = new Intl.NumberFormat('en');
t('bigint 10^400', () => en.format(10n ** 400n));
t('negative bigint', () => (-(10n ** 400n)).toLocaleString());
t('bigint de', () => (2n ** 1100n).toLocaleString('de-DE'));
t('bigint parts', () => new Intl.NumberFormat('de-DE').formatToParts(2n ** 100n));
t('bigint small', () => [en.format(0n), en.format(-1n), en.format(2n ** 53n + 1n)]);
t('string 1e400', () => [en.format('1e400'), en.format('-1e400'), en.format('1e-400'), en.format('1' + '0'.repeat(400))]);
const order = [];
const at = (ms, name) => new Promise((r) => setTimeout(() => { order.push(name); r(); }, ms));
await Promise.all([at(2 ** 31, '2**31'), at(Infinity, 'Infinity'), at(2 ** 53, '2**53'), at(20, '20')]);
out.push(['long timers', order]);
return out;
