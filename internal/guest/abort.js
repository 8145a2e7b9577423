// modebox AbortController and AbortSignal, as the web platform and Node
// have them: abort(reason), the abort event (addEventListener,
// removeEventListener, onabort), throwIfAborted, AbortSignal.abort,
// AbortSignal.timeout and AbortSignal.any. fetch() honours a signal. A
// function expression the prelude compiles (indirect eval) the first time
// a program reads either global; the host serves the text (guest.Sources),
// so the snapshot every run restores holds none of it. It receives what
// it needs from the prelude, captured at init, and returns
// [AbortController, AbortSignal].
(function (deps) {
  'use strict';
  const [G, DOMException, WeakMapCtor, TypeErrorCtor, defineProperty, apply, queueMicrotask] = deps;
  const state = new WeakMapCtor(); // signal -> {aborted, reason, listeners, onabort}
  const token = {};
  function get(s) {
    const st = state.get(s);
    if (!st) throw new TypeErrorCtor('Illegal invocation');
    return st;
  }
  function abortSignal(s, reason) {
    const st = get(s);
    if (st.aborted) return;
    st.aborted = true;
    st.reason = reason;
    const ev = { type: 'abort', target: s, currentTarget: s, isTrusted: true, bubbles: false, cancelable: false, defaultPrevented: false };
    const run = (fn, self) => {
      try {
        if (typeof fn === 'function') apply(fn, self, [ev]);
        else apply(fn.handleEvent, fn, [ev]);
      } catch (e) {
        queueMicrotask(() => { throw e; }); // as an uncaught error, after the others ran
      }
    };
    const listeners = st.listeners;
    st.listeners = [];
    // onabort runs where it was first set among the listeners, as in Node
    for (const l of listeners) run(l.handler ? st.onabort : l.fn, s);
    for (const d of st.dependents) abortSignal(d, reason);
    st.dependents = [];
  }
  function newSignal() {
    const s = new AbortSignal(token);
    return s;
  }
  class AbortSignal {
    constructor(key) {
      if (key !== token) throw new TypeErrorCtor('Illegal constructor');
      state.set(this, { aborted: false, reason: undefined, listeners: [], onabort: null, dependents: [] });
    }
    get aborted() { return get(this).aborted; }
    get reason() { return get(this).reason; }
    get onabort() { return get(this).onabort; }
    set onabort(fn) {
      const st = get(this);
      st.onabort = typeof fn === 'function' ? fn : null;
      const at = st.listeners.findIndex((l) => l.handler);
      if (st.onabort && at < 0) st.listeners.push({ handler: true });
      else if (!st.onabort && at >= 0) st.listeners.splice(at, 1);
    }
    throwIfAborted() {
      const st = get(this);
      if (st.aborted) throw st.reason;
    }
    addEventListener(type, fn, options) {
      const st = get(this);
      if (type !== 'abort' || fn === null || fn === undefined || st.aborted) return;
      for (const l of st.listeners) if (l.fn === fn) return;
      st.listeners.push({ fn });
    }
    removeEventListener(type, fn) {
      const st = get(this);
      if (type !== 'abort') return;
      st.listeners = st.listeners.filter((l) => l.fn !== fn);
    }
    static abort(reason) {
      const s = newSignal();
      abortSignal(s, reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason);
      return s;
    }
    static timeout(ms) {
      const s = newSignal();
      G.setTimeout(() => abortSignal(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
      return s;
    }
    static any(iterable) {
      const s = newSignal();
      const signals = [];
      for (const o of iterable) signals.push(o); // once: it may be a generator
      for (const o of signals) {
        const st = get(o);
        if (st.aborted) {
          abortSignal(s, st.reason);
          return s;
        }
      }
      for (const o of signals) get(o).dependents.push(s);
      return s;
    }
  }
  defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });
  const signals = new WeakMapCtor();
  class AbortController {
    constructor() { signals.set(this, newSignal()); }
    get signal() {
      const s = signals.get(this);
      if (!s) throw new TypeErrorCtor('Illegal invocation');
      return s;
    }
    abort(reason) {
      abortSignal(this.signal, reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason);
    }
  }
  defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true });
  return [AbortController, AbortSignal];
})
