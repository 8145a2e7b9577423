// AbortController and AbortSignal (abort.js): reasons, the abort event's
// order with onabort, listeners added twice or removed, AbortSignal.abort,
// timeout and any.
const out = [];
const t = (k, f) => { try { out.push([k, f()]); } catch (e) { out.push([k, 'throws ' + e.name + ': ' + e.message]); } };
t('types', () => [typeof AbortController, typeof AbortSignal, String(new AbortController()), String(new AbortController().signal), Object.prototype.toString.call(AbortSignal.abort())]);
t('new AbortSignal', () => new AbortSignal());
t('abort default', () => { const c = new AbortController(); const ev = []; c.signal.addEventListener('abort', (e) => ev.push(['l1', e.type, e.target === c.signal])); c.signal.onabort = (e) => ev.push(['on', e.type]); c.signal.addEventListener('abort', (e) => ev.push(['l2'])); c.abort(); c.abort('again'); return [c.signal.aborted, c.signal.reason.name, c.signal.reason.message, c.signal.reason instanceof DOMException, c.signal.reason.code, ev]; });
t('abort reason', () => { const c = new AbortController(); c.abort('why'); return [c.signal.reason, (() => { try { c.signal.throwIfAborted(); } catch (e) { return e; } })()]; });
t('remove listener', () => { const c = new AbortController(); const ev = []; const f = () => ev.push(1); c.signal.addEventListener('abort', f); c.signal.addEventListener('abort', f); c.signal.removeEventListener('abort', f); c.abort(); return ev; });
t('dup listener', () => { const c = new AbortController(); const ev = []; const f = () => ev.push(1); c.signal.addEventListener('abort', f); c.signal.addEventListener('abort', f); c.abort(); return ev; });
t('static abort', () => { const s = AbortSignal.abort(); return [s.aborted, s.reason.name]; });
t('any', () => { const a = new AbortController(), b = new AbortController(); const s = AbortSignal.any([a.signal, b.signal]); const before = s.aborted; b.abort('b'); return [before, s.aborted, s.reason]; });
t('any of a generator', () => { const a = new AbortController(); const s = AbortSignal.any((function* () { yield a.signal; })()); a.abort('g'); return [s.aborted, s.reason]; });
t('any aborted', () => { const s = AbortSignal.any([AbortSignal.abort('x')]); return [s.aborted, s.reason]; });
t('not aborted', () => { const c = new AbortController(); c.signal.throwIfAborted(); return [c.signal.aborted, c.signal.reason, c.signal.onabort]; });
const ts = AbortSignal.timeout(10);
await new Promise((r) => setTimeout(r, 50));
out.push(['timeout', [ts.aborted, ts.reason.name, ts.reason.message, ts.reason.code]]);
return out;
