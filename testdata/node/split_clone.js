// String.prototype.split and RegExp.prototype[Symbol.split] with groups
// that did not match (undefined, not "undefined"), and structuredClone of
// errors (the prototype by name, own message and stack, a cloned cause).
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
const marks = (a) => a.map((x) => (x === undefined ? '<undefined>' : x));
t('split unmatched group', () => marks('abc'.split(/(b)|(z)/)));
t('split pairs', () => marks('k1=v1;k2'.split(/(=)|(;)/)));
t('split limit', () => marks('a1b2c3'.split(/(\d)(x)?/, 4)));
t('split optional group', () => marks('2024-05-06'.split(/-(0)?/)));
t('split named', () => marks('a,b;c'.split(/(?<comma>,)|(?<semi>;)/)));
t('symbol split', () => marks(RegExp.prototype[Symbol.split].call(/(x)|(-)/, 'a-b')));
t('split sticky', () => marks('a-b_c'.split(/(-)|(_)/y)));
t('split unicode', () => marks('😀a😀'.split(/(a)|(b)/u)));
const shape = (e) => {
  const p = Object.getPrototypeOf(e);
  const names = ['Error', 'TypeError', 'RangeError', 'ReferenceError', 'SyntaxError', 'EvalError', 'URIError'];
  return {
    proto: names.find((n) => globalThis[n].prototype === p) || 'other',
    name: e.name, message: e.message,
    own: Object.getOwnPropertyNames(e).filter((k) => k !== 'stack').sort(),
    hasStack: typeof e.stack === 'string',
    cause: 'cause' in e ? e.cause : '<none>',
  };
};
class MyErr extends RangeError { constructor(m) { super(m); this.name = 'MyErr'; this.extra = 5; } }
const renamed = new Error('x'); renamed.name = 'TypeError';
const custom = new Error('y'); custom.name = 'Custom';
const extra = new Error('z'); extra.foo = 1;
const cyc = new Error('cyc'); cyc.cause = cyc;
t('clone TypeError', () => shape(structuredClone(new TypeError('x'))));
t('clone subclass', () => shape(structuredClone(new MyErr('m'))));
t('clone renamed', () => shape(structuredClone(renamed)));
t('clone custom name', () => shape(structuredClone(custom)));
t('clone no message', () => shape(structuredClone(new TypeError())));
t('clone cause', () => shape(structuredClone(new Error('c', { cause: { a: [1] } }))));
t('clone aggregate', () => shape(structuredClone(new AggregateError([1], 'agg'))));
t('clone extra', () => shape(structuredClone(extra)));
t('clone others', () => [new EvalError('e'), new URIError('u'), new SyntaxError('s'), new ReferenceError('r')].map((e) => shape(structuredClone(e))));
t('clone cycle', () => { const c = structuredClone(cyc); return c.cause === c; });
t('clone nested', () => structuredClone({ e: new RangeError('q') }).e instanceof RangeError);
t('clone instanceof', () => structuredClone(new TypeError('x')) instanceof TypeError);
return out;
