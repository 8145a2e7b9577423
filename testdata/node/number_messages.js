// The RangeError messages of the number methods, which a program may
// return as e.message: V8's wording.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, e.name + ': ' + e.message]); } };
t('toFixed 101', () => (1).toFixed(101));
t('toFixed -1', () => (1.5).toFixed(-1));
t('toFixed 100', () => (1).toFixed(100).length);
t('toPrecision 0', () => (1).toPrecision(0));
t('toPrecision 101', () => (1).toPrecision(101));
t('toExponential -1', () => (1).toExponential(-1));
t('toExponential 101', () => (1).toExponential(101));
t('toString 37', () => (255).toString(37));
t('toString 1', () => (255).toString(1));
t('BigInt toString 1', () => (255n).toString(1));
t('BigInt toString 37', () => (255n).toString(37));
t('toString 36', () => (255).toString(36));
t('NaN toFixed 101', () => NaN.toFixed(101));
return out;
