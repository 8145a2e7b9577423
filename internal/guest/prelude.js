// modebox prelude: the JS side of the bridge, evaluated once at engine init
// and kept in the memory snapshot, so it costs nothing at the start of a run.
// Its completion value is {tools, builtins, start, settle, format}, which
// the C glue keeps.
// Everything it needs later is captured here, before any program runs, so
// a program that replaces globals cannot change how the bridge works.
(function () {
  'use strict';
  const G = globalThis;
  const send = G.__modebox_send;
  delete G.__modebox_send;
  const plainEncode = G.__modebox_encode; // JSON of plain data, else null (glue.c)
  delete G.__modebox_encode;
  const memRefused = G.__modebox_mem_refused; // has the memory cap refused an allocation (glue.c)
  delete G.__modebox_mem_refused;
  const nativeCall = G.__modebox_call; // host calls (glue.c)
  delete G.__modebox_call;
  const hostSync = G.__modebox_sync; // the synchronous host call (glue.c), left by intl.js
  delete G.__modebox_sync;
  const plainCall = G.__modebox_call_plain; // host calls with plain data, else null (glue.c)
  delete G.__modebox_call_plain;
  const makeTool = G.__modebox_tool; // a tool's function (glue.c)
  delete G.__modebox_tool;

  const O = Object;
  const defineProperty = O.defineProperty;
  const getPrototypeOf = O.getPrototypeOf;
  const setPrototypeOf = O.setPrototypeOf;
  const objectKeys = O.keys;
  const fromEntries = O.fromEntries;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const jsonParse = JSON.parse;
  const jsonStringify = JSON.stringify;
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  const MapCtor = Map;
  const SetCtor = Set;
  const WeakMapCtor = WeakMap;
  const weakMapGet = WeakMap.prototype.get;
  const weakMapSet = WeakMap.prototype.set;
  const hasOwnProp = Object.prototype.hasOwnProperty;
  const arrayFrom = Array.from;
  const isArray = Array.isArray;
  const ArrayCtor = Array;
  const stringSlice = String.prototype.slice;
  const stringIncludes = String.prototype.includes;
  const stringIndexOf = String.prototype.indexOf;
  const NumberCtor = Number;
  const parseIntFn = parseInt, parseFloatFn = parseFloat;
  const arrayJoin = Array.prototype.join;
  const arrayPush = Array.prototype.push;

  // Event kinds and log levels: keep in sync with glue.c and abi.go.
  const EV_CALL = 1, EV_LOG = 2, EV_RESULT = 3, EV_ERROR = 4;
  const MAX_TEXT = 16384;

  function hidden(obj, name, value) {
    defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  }
  function polyfill(obj, name, value) {
    if (!(name in obj)) hidden(obj, name, value);
  }

  // ---- polyfills for what QuickJS 2021-03-27 lacks ----
  const TypedArrayProto = getPrototypeOf(Int8Array.prototype);
  function toIndex(len, i) {
    i = Math.trunc(+i) || 0;
    return i < 0 ? len + i : i;
  }
  function at(i) {
    const len = this.length >>> 0;
    const k = toIndex(len, i);
    return k < 0 || k >= len ? undefined : this[k];
  }
  polyfill(Array.prototype, 'at', at);
  polyfill(String.prototype, 'at', function (i) { return apply(at, StringCtor(this), [i]); });
  polyfill(TypedArrayProto, 'at', at);
  polyfill(O, 'hasOwn', function hasOwn(o, k) {
    if (o == null) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    return apply(hasOwnProp, O(o), [k]);
  });
  function findLast(fn, thisArg) {
    for (let i = (this.length >>> 0) - 1; i >= 0; i--) if (apply(fn, thisArg, [this[i], i, this])) return this[i];
    return undefined;
  }
  function findLastIndex(fn, thisArg) {
    for (let i = (this.length >>> 0) - 1; i >= 0; i--) if (apply(fn, thisArg, [this[i], i, this])) return i;
    return -1;
  }
  for (const proto of [Array.prototype, TypedArrayProto]) {
    polyfill(proto, 'findLast', findLast);
    polyfill(proto, 'findLastIndex', findLastIndex);
  }
  // The change-by-copy methods read every index, so a hole in the
  // original is undefined in the copy, as the spec and V8 have it (slice
  // would keep the hole).
  function denseCopy(o) {
    o = O(o);
    const len = o.length >>> 0;
    const a = new ArrayCtor(len);
    for (let k = 0; k < len; k++) a[k] = o[k];
    return a;
  }
  polyfill(Array.prototype, 'toSorted', function toSorted(cmp) {
    if (cmp !== undefined && typeof cmp !== 'function') throw new TypeErrorCtor('The comparison function must be either a function or undefined: ' + (cmp !== null && typeof cmp === 'object' ? '#<' + ((getPrototypeOf(cmp) || {}).constructor || O).name + '>' : StringCtor(cmp)));
    return denseCopy(this).sort(cmp);
  });
  polyfill(Array.prototype, 'toReversed', function toReversed() { return denseCopy(this).reverse(); });
  polyfill(Array.prototype, 'toSpliced', function toSpliced(...args) {
    const copy = denseCopy(this);
    copy.splice(...args);
    return copy;
  });
  polyfill(Array.prototype, 'with', function (i, v) {
    const len = O(this).length >>> 0;
    const k = toIndex(len, i);
    if (k < 0 || k >= len) throw new RangeError('Invalid index : ' + i);
    const copy = denseCopy(this);
    copy[k] = v;
    return copy;
  });
  polyfill(TypedArrayProto, 'toSorted', function toSorted(cmp) { return this.slice().sort(cmp); });
  polyfill(TypedArrayProto, 'toReversed', function toReversed() { return this.slice().reverse(); });
  polyfill(TypedArrayProto, 'with', function (i, v) {
    const k = toIndex(this.length, i);
    if (k < 0 || k >= this.length) throw new RangeError('Invalid typed array index');
    const copy = this.slice();
    copy[k] = v;
    return copy;
  });
  function groupInto(items, fn, add) {
    let i = 0;
    for (const item of items) add(fn(item, i++), item);
  }
  polyfill(O, 'groupBy', function groupBy(items, fn) {
    const out = O.create(null);
    groupInto(items, fn, (k, v) => {
      k = typeof k === 'symbol' ? k : StringCtor(k);
      (out[k] || (out[k] = [])).push(v);
    });
    return out;
  });
  polyfill(MapCtor, 'groupBy', function groupBy(items, fn) {
    const out = new MapCtor();
    groupInto(items, fn, (k, v) => {
      const list = out.get(k);
      if (list) list.push(v); else out.set(k, [v]);
    });
    return out;
  });
  polyfill(PromiseCtor, 'withResolvers', function withResolvers() {
    let resolve, reject;
    const promise = new this((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  });
  // Array.fromAsync (in Node 22): fromasync.js, compiled on first call
  // (hostSource).
  let fromAsyncImpl;
  polyfill(ArrayCtor, 'fromAsync', function fromAsync(items, mapfn = undefined, thisArg = undefined) {
    if (!fromAsyncImpl) fromAsyncImpl = evalFn(hostSource('fromAsync'))([ArrayCtor, TypeErrorCtor, StringCtor, O, apply, construct, defineProperty]);
    return apply(fromAsyncImpl, this, [items, mapfn, thisArg]);
  });
  polyfill(String.prototype, 'isWellFormed', function isWellFormed() {
    return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/.test(StringCtor(this));
  });
  polyfill(String.prototype, 'toWellFormed', function toWellFormed() {
    return StringCtor(this).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      (m, pre) => (pre === undefined ? '\uFFFD' : pre + '\uFFFD'));
  });
  // The ES2025 Set methods: setmethods.js, compiled on first call
  // (hostSource).
  let setImpl;
  const setMethod = (k) => ({
    [k](o) {
      if (!setImpl) setImpl = evalFn(hostSource('set'))([SetCtor, TypeErrorCtor, StringCtor, apply]);
      return apply(setImpl[k], this, [o]);
    },
  })[k];
  for (const k of ['union', 'intersection', 'difference', 'symmetricDifference', 'isSubsetOf', 'isSupersetOf', 'isDisjointFrom']) polyfill(SetCtor.prototype, k, setMethod(k));

  // crypto.getRandomValues and randomUUID: from the run's Math.random,
  // whose seed is in the journal, so a replay gets the same values.
  const random = Math.random;
  const integerArrays = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  const crypto = {};
  hidden(crypto, 'getRandomValues', function getRandomValues(a) {
    let ok = false;
    for (const C of integerArrays) if (a instanceof C) ok = true;
    if (!ok) throw new DOMException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
    if (a.byteLength > 65536) throw new DOMException('The requested length exceeds 65,536 bytes', 'QuotaExceededError');
    const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    for (let i = 0; i < b.length; i++) b[i] = Math.floor(random() * 256);
    return a;
  });
  const hex = '0123456789abcdef';
  hidden(crypto, 'randomUUID', function randomUUID() {
    let s = '';
    for (let i = 0; i < 36; i++) {
      if (i === 8 || i === 13 || i === 18 || i === 23) { s += '-'; continue; }
      let n = Math.floor(random() * 16);
      if (i === 14) n = 4;
      else if (i === 19) n = 8 + (n & 3);
      s += hex[n];
    }
    return s;
  });
  defineProperty(crypto, Symbol.toStringTag, { value: 'Crypto', configurable: true });
  polyfill(G, 'crypto', crypto);

  // Iterator helpers (ES2025): Iterator, Iterator.from and the methods on
  // Iterator.prototype, which every built-in iterator inherits.
  const IteratorProto = getPrototypeOf(getPrototypeOf([][Symbol.iterator]()));
  function Iterator() {
    if (new.target === undefined || new.target === Iterator) throw new TypeErrorCtor('Abstract class Iterator not directly constructable');
  }
  Iterator.prototype = IteratorProto;
  hidden(IteratorProto, 'constructor', Iterator);
  if (!(Symbol.toStringTag in IteratorProto)) defineProperty(IteratorProto, Symbol.toStringTag, { value: 'Iterator', configurable: true, writable: true });
  const HelperProto = O.create(IteratorProto);
  function helper(gen) {
    const it = O.create(HelperProto);
    hidden(it, '_g', gen);
    return it;
  }
  hidden(HelperProto, 'next', function next() { return this._g.next(); });
  hidden(HelperProto, 'return', function () { return this._g.return(); });
  defineProperty(HelperProto, Symbol.toStringTag, { value: 'Iterator Helper', configurable: true });
  function direct(it) {
    if (it === null || (typeof it !== 'object' && typeof it !== 'function')) throw new TypeErrorCtor(StringCtor(it) + ' is not an object');
    const next = it.next;
    return { it, next };
  }
  function* walk(d) {
    for (;;) {
      const r = apply(d.next, d.it, []);
      if (r === null || typeof r !== 'object') throw new TypeErrorCtor('Iterator result ' + StringCtor(r) + ' is not an object');
      if (r.done) return;
      yield r.value;
    }
  }
  function closeIt(it) { const f = it.return; if (typeof f === 'function') apply(f, it, []); }
  function fn(f, name) { if (typeof f !== 'function') throw new TypeErrorCtor(StringCtor(f) + ' is not a function'); return f; }
  function count(n, name) {
    const v = +n;
    if (v !== v) throw new RangeError(StringCtor(n) + ' must be positive');
    const i = Math.trunc(v);
    if (i < 0) throw new RangeError(StringCtor(n) + ' must be positive');
    return i;
  }
  const iterMethods = {
    map(f) { fn(f); const d = direct(this); return helper((function* () { let i = 0; for (const v of walk(d)) yield f(v, i++); })()); },
    filter(f) { fn(f); const d = direct(this); return helper((function* () { let i = 0; for (const v of walk(d)) if (f(v, i++)) yield v; })()); },
    take(n) {
      const d = direct(this); const lim = count(n);
      return helper((function* () { let i = 0; if (lim === 0) { closeIt(d.it); return; } for (const v of walk(d)) { yield v; if (++i >= lim) { closeIt(d.it); return; } } })());
    },
    drop(n) { const d = direct(this); const lim = count(n); return helper((function* () { let i = 0; for (const v of walk(d)) { if (i++ >= lim) yield v; } })()); },
    flatMap(f) {
      fn(f); const d = direct(this);
      return helper((function* () {
        let i = 0;
        for (const v of walk(d)) {
          const inner = f(v, i++);
          if (inner === null || (typeof inner !== 'object' && typeof inner !== 'function')) throw new TypeErrorCtor(StringCtor(inner) + ' is not an object');
          yield* (typeof inner[Symbol.iterator] === 'function' ? inner : walk(direct(inner)));
        }
      })());
    },
    reduce(f, ...init) {
      fn(f); const d = direct(this);
      let acc, i = 0, have = init.length > 0;
      if (have) acc = init[0];
      for (const v of walk(d)) { if (!have) { acc = v; have = true; i++; continue; } acc = f(acc, v, i++); }
      if (!have) throw new TypeErrorCtor('Reduce of empty iterator with no initial value');
      return acc;
    },
    toArray() { const out = []; for (const v of walk(direct(this))) out.push(v); return out; },
    forEach(f) { fn(f); let i = 0; for (const v of walk(direct(this))) f(v, i++); },
    some(f) { fn(f); const d = direct(this); let i = 0; for (const v of walk(d)) if (f(v, i++)) { closeIt(d.it); return true; } return false; },
    every(f) { fn(f); const d = direct(this); let i = 0; for (const v of walk(d)) if (!f(v, i++)) { closeIt(d.it); return false; } return true; },
    find(f) { fn(f); const d = direct(this); let i = 0; for (const v of walk(d)) if (f(v, i++)) { closeIt(d.it); return v; } return undefined; },
  };
  for (const k of objectKeys(iterMethods)) polyfill(IteratorProto, k, iterMethods[k]);
  const WrapProto = O.create(IteratorProto);
  hidden(WrapProto, 'next', function next() { return apply(this._d.next, this._d.it, []); });
  hidden(WrapProto, 'return', function () { const f = this._d.it.return; return f === undefined ? { value: undefined, done: true } : apply(f, this._d.it, []); });
  hidden(Iterator, 'from', function from(o) {
    let it = o;
    if (typeof o === 'string' || (o !== null && typeof o === 'object') || typeof o === 'function') {
      const m = o[Symbol.iterator];
      if (m !== undefined && m !== null) it = apply(fn(m), o, []);
    } else throw new TypeErrorCtor(StringCtor(o) + ' is not an object');
    if (it instanceof Iterator) return it;
    const w = O.create(WrapProto);
    hidden(w, '_d', direct(it));
    return w;
  });
  polyfill(G, 'Iterator', Iterator);

  // URLSearchParams (application/x-www-form-urlencoded, as the URL
  // standard parses and serializes it).
  const formSafe = /[A-Za-z0-9*\-._]/;
  function formEncode(s) {
    const bytes = [];
    utf8Bytes(StringCtor(s), bytes, Infinity);
    let out = '';
    for (const b of bytes) {
      const c = StringCtor.fromCharCode(b);
      if (b === 0x20) out += '+';
      else if (b < 0x80 && formSafe.test(c)) out += c;
      else out += '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
    }
    return out;
  }
  function formDecode(s) {
    s = s.replace(/\+/g, ' ');
    const bytes = [];
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
        bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
        i += 2;
      } else if (c < 0x80) bytes.push(c);
      else {
        const cp = s.codePointAt(i);
        utf8Bytes(StringCtor.fromCodePoint(cp), bytes, Infinity);
        if (cp > 0xffff) i++;
      }
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }
  function toUSV(v) { return StringCtor(v).toWellFormed(); }
  // a URL's searchParams tells the URL when it changes (the URL standard's
  // update steps)
  function paramsChanged(sp) { if (sp._url) sp._url._paramsChanged(sp._list); }
  class URLSearchParams {
    constructor(init = '') {
      hidden(this, '_list', []);
      if (init instanceof URLSearchParams) { for (const p of init._list) this._list.push([p[0], p[1]]); return; }
      if (init !== null && typeof init === 'object' || typeof init === 'function') {
        if (typeof init[Symbol.iterator] === 'function') {
          for (const pair of init) {
            const p = arrayFrom(pair);
            if (p.length !== 2) throw new TypeErrorCtor("Each query pair must be an iterable [name, value] tuple");
            this._list.push([toUSV(p[0]), toUSV(p[1])]);
          }
        } else {
          for (const k of Reflect.ownKeys(init)) {
            if (typeof k !== 'string') continue;
            const d = O.getOwnPropertyDescriptor(init, k);
            if (d && d.enumerable) this._list.push([toUSV(k), toUSV(init[k])]);
          }
        }
        return;
      }
      let s = toUSV(init);
      if (s[0] === '?') s = s.slice(1);
      for (const part of s.split('&')) {
        if (part === '') continue;
        const i = part.indexOf('=');
        const name = i < 0 ? part : part.slice(0, i), value = i < 0 ? '' : part.slice(i + 1);
        this._list.push([formDecode(name), formDecode(value)]);
      }
    }
    get size() { return this._list.length; }
    append(k, v) { this._list.push([toUSV(k), toUSV(v)]); paramsChanged(this); }
    delete(k, v) {
      k = toUSV(k);
      const hasV = arguments.length > 1 && v !== undefined;
      if (hasV) v = toUSV(v);
      this._list = this._list.filter((p) => !(p[0] === k && (!hasV || p[1] === v)));
      paramsChanged(this);
    }
    get(k) { k = toUSV(k); for (const p of this._list) if (p[0] === k) return p[1]; return null; }
    getAll(k) { k = toUSV(k); return this._list.filter((p) => p[0] === k).map((p) => p[1]); }
    has(k, v) {
      k = toUSV(k);
      const hasV = arguments.length > 1 && v !== undefined;
      if (hasV) v = toUSV(v);
      return this._list.some((p) => p[0] === k && (!hasV || p[1] === v));
    }
    set(k, v) {
      k = toUSV(k); v = toUSV(v);
      const i = this._list.findIndex((p) => p[0] === k);
      if (i < 0) { this._list.push([k, v]); paramsChanged(this); return; }
      this._list[i][1] = v;
      this._list = this._list.filter((p, j) => j <= i || p[0] !== k);
      paramsChanged(this);
    }
    sort() {
      // stable, by UTF-16 code units of the names
      const keyed = this._list.map((p, i) => [p, i]);
      keyed.sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]));
      this._list = keyed.map((x) => x[0]);
      paramsChanged(this);
    }
    forEach(fn, thisArg) { for (const [k, v] of this) apply(fn, thisArg, [v, k, this]); }
    *entries() { for (let i = 0; i < this._list.length; i++) yield [this._list[i][0], this._list[i][1]]; }
    *keys() { for (const [k] of this.entries()) yield k; }
    *values() { for (const [, v] of this.entries()) yield v; }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map((p) => formEncode(p[0]) + '=' + formEncode(p[1])).join('&'); }
  }
  defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true });
  polyfill(G, 'URLSearchParams', URLSearchParams);

  // URL (the WHATWG URL standard's basic parser and serializer). Hosts:
  // domains are lowercased and NFC-normalized, non-ASCII labels written
  // in Punycode (no UTS 46 mapping table), IPv4 in every form the
  // standard reads, IPv6 with the longest zero run compressed.
  // The implementation is url.js, compiled when a program first reads URL
  // (hostSource: the snapshot every run restores holds none of it).
  const evalFn = G.eval;
  let URLImpl;
  defineProperty(G, 'URL', {
    configurable: true,
    enumerable: false,
    get() {
      if (!URLImpl) {
        URLImpl = evalFn(hostSource('url'))({ G, O, hasOwnProp, arrayFrom, StringCtor, TypeErrorCtor, WeakMapCtor, weakMapGet, weakMapSet,
          apply, defineProperty, hidden, utf8Bytes, URLSearchParams, formEncode });
      }
      defineProperty(G, 'URL', { value: URLImpl, writable: true, configurable: true, enumerable: false });
      return URLImpl;
    },
    set(v) { defineProperty(G, 'URL', { value: v, writable: true, configurable: true, enumerable: false }); },
  });

  // The text of a source the host keeps (guest.Sources), for the parts
  // compiled on first use: a synchronous host call, as Intl's, so that the
  // snapshot every run restores holds none of it.
  function hostSource(name) { return hostSync('["modebox.source",' + jsonStringify(name) + ']'); }

  // AbortController and AbortSignal: abort.js, compiled when a program
  // first reads either (hostSource).
  let abortImpl;
  const abortSet = [false, false]; // the program assigned the global itself
  function abortClasses() {
    if (!abortImpl) {
      abortImpl = evalFn(hostSource('abort'))([G, DOMException, WeakMapCtor, TypeErrorCtor, defineProperty, apply,
        (fn) => apply(promiseThen, PromiseCtor.resolve(), [fn])]);
      for (let i = 0; i < 2; i++) {
        if (!abortSet[i]) defineProperty(G, i ? 'AbortSignal' : 'AbortController', { value: abortImpl[i], writable: true, configurable: true, enumerable: false });
      }
    }
    return abortImpl;
  }
  for (let i = 0; i < 2; i++) {
    const name = i ? 'AbortSignal' : 'AbortController';
    defineProperty(G, name, {
      configurable: true,
      enumerable: false,
      get() { return abortClasses()[i]; },
      set(v) {
        abortSet[i] = true;
        defineProperty(G, name, { value: v, writable: true, configurable: true, enumerable: false });
      },
    });
  }

  // Error options ({cause}) and V8's Error.captureStackTrace.
  const constructFrame = '    at construct (native)\n';
  function wrapError(name, optionsIndex) {
    const Orig = G[name];
    if (typeof Orig !== 'function') return;
    const Wrapped = function (...args) {
      const e = construct(Orig, args, new.target || Wrapped);
      // the stack starts at the caller, not at this wrapper and its
      // construct
      const st = e.stack;
      if (typeof st === 'string') {
        let i = 0;
        for (;;) {
          const nl = apply(stringIndexOf, st, ['\n', i]);
          if (nl < 0) break;
          const line = apply(stringSlice, st, [i, nl + 1]);
          if (line !== constructFrame && !apply(stringIncludes, line, ['(<prelude>:'])) break;
          i = nl + 1;
        }
        if (i > 0) hidden(e, 'stack', apply(stringSlice, st, [i]));
      }
      const opts = args[optionsIndex];
      if (opts !== null && typeof opts === 'object' && 'cause' in opts) hidden(e, 'cause', opts.cause);
      return e;
    };
    Wrapped.prototype = Orig.prototype;
    hidden(Orig.prototype, 'constructor', Wrapped);
    defineProperty(Wrapped, 'name', { value: name, configurable: true });
    defineProperty(Wrapped, 'length', { value: optionsIndex, configurable: true });
    setPrototypeOf(Wrapped, getPrototypeOf(Orig));
    hidden(G, name, Wrapped);
  }
  for (const n of ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'InternalError']) wrapError(n, 1);
  wrapError('AggregateError', 2);
  polyfill(G.Error, 'captureStackTrace', function captureStackTrace() {});

  // DOMException, as the web platform (and Node) has it.
  const domCodes = { IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12,
    InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18,
    NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23,
    InvalidNodeTypeError: 24, DataCloneError: 25 };
  class DOMException extends ErrorCtor {
    constructor(message = '', name = 'Error') {
      super(StringCtor(message));
      hidden(this, 'name', StringCtor(name));
      hidden(this, 'code', domCodes[this.name] || 0);
    }
  }
  defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
  for (const k of objectKeys(domCodes)) {
    const c = k.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/Error$/, '').toUpperCase().replace(/_$/, '') + '_ERR';
    defineProperty(DOMException, c, { value: domCodes[k], enumerable: true });
  }
  polyfill(G, 'DOMException', DOMException);

  // structuredClone: plain data, Date, RegExp, Map, Set, ArrayBuffer,
  // typed arrays and errors; cycles kept; functions and symbols refused.
  const getOwnDesc = O.getOwnPropertyDescriptor;
  const objectCreate = O.create;
  const cloneErrorCtors = objectCreate(null);
  cloneErrorCtors.Error = ErrorCtor;
  cloneErrorCtors.TypeError = TypeErrorCtor;
  cloneErrorCtors.RangeError = RangeError;
  cloneErrorCtors.ReferenceError = ReferenceError;
  cloneErrorCtors.SyntaxError = SyntaxError;
  cloneErrorCtors.EvalError = EvalError;
  cloneErrorCtors.URIError = URIError;
  function cloneValue(v, seen) {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'function' || typeof v === 'symbol') throw new DOMException(StringCtor(v) + ' could not be cloned.', 'DataCloneError');
      return v;
    }
    if (seen.has(v)) return seen.get(v);
    let out;
    if (isArray(v)) {
      // the length, then own enumerable keys: holes stay holes, and
      // other own properties come along, as in Node
      out = new ArrayCtor(v.length);
      seen.set(v, out);
      for (const k of objectKeys(v)) out[k] = cloneValue(v[k], seen);
      return out;
    }
    if (v instanceof Date) out = new Date(v.getTime());
    else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
    else if (v instanceof ArrayBuffer) out = v.slice(0);
    else if (ArrayBuffer.isView(v)) out = new v.constructor(v);
    else if (v instanceof MapCtor) {
      out = new MapCtor();
      seen.set(v, out);
      for (const [k, x] of v) out.set(cloneValue(k, seen), cloneValue(x, seen));
      return out;
    } else if (v instanceof SetCtor) {
      out = new SetCtor();
      seen.set(v, out);
      for (const x of v) out.add(cloneValue(x, seen));
      return out;
    } else if (v instanceof ErrorCtor) {
      // as V8 (Node): the prototype by the name, one of the seven
      // standard ones or Error's; an own message and stack that are
      // data, kept; a cause, cloned; nothing else
      const ctor = cloneErrorCtors[StringCtor(v.name)] || ErrorCtor;
      out = objectCreate(ctor.prototype);
      seen.set(v, out);
      const message = getOwnDesc(v, 'message');
      if (message !== undefined && 'value' in message) hidden(out, 'message', StringCtor(message.value));
      const stack = getOwnDesc(v, 'stack');
      if (stack !== undefined && 'value' in stack && typeof stack.value === 'string') hidden(out, 'stack', stack.value);
      const cause = getOwnDesc(v, 'cause');
      if (cause !== undefined && 'value' in cause) hidden(out, 'cause', cloneValue(cause.value, seen));
      return out;
    } else {
      out = {};
      seen.set(v, out);
      for (const k of objectKeys(v)) out[k] = cloneValue(v[k], seen);
      return out;
    }
    seen.set(v, out);
    return out;
  }
  polyfill(G, 'structuredClone', function structuredClone(v) { return cloneValue(v, new MapCtor()); });

  // Base64 and UTF-8.
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  polyfill(G, 'btoa', function btoa(s) {
    s = StringCtor(s);
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new DOMException('Invalid character', 'InvalidCharacterError');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < s.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? B64[n & 63] : '=');
    }
    return out;
  });
  polyfill(G, 'atob', function atob(s) {
    s = StringCtor(s).replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) s = s.replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new DOMException('Invalid character', 'InvalidCharacterError');
    let out = '', bits = 0, n = 0;
    for (let i = 0; i < s.length; i++) {
      n = (n << 6) | B64.indexOf(s[i]);
      bits += 6;
      if (bits >= 8) { bits -= 8; out += StringCtor.fromCharCode((n >> bits) & 255); }
    }
    return out;
  });
  function utf8Bytes(s, out, max) {
    // encodes s into out (an array or a Uint8Array) up to max bytes;
    // returns [code units read, bytes written]
    let read = 0, w = 0;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i), units = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); units = 2; }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      const n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (w + n > max) break;
      if (n === 1) out[w++] = c;
      else if (n === 2) { out[w++] = 0xc0 | (c >> 6); out[w++] = 0x80 | (c & 63); }
      else if (n === 3) { out[w++] = 0xe0 | (c >> 12); out[w++] = 0x80 | ((c >> 6) & 63); out[w++] = 0x80 | (c & 63); }
      else { out[w++] = 0xf0 | (c >> 18); out[w++] = 0x80 | ((c >> 12) & 63); out[w++] = 0x80 | ((c >> 6) & 63); out[w++] = 0x80 | (c & 63); }
      read += units;
      if (units === 2) i++;
    }
    return [read, w];
  }
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(s = '') {
      const out = [];
      utf8Bytes(StringCtor(s), out, Infinity);
      return new Uint8Array(out);
    }
    encodeInto(s, dest) {
      if (!(dest instanceof Uint8Array)) throw new TypeErrorCtor('The "dest" argument must be an instance of Uint8Array.');
      const [read, written] = utf8Bytes(StringCtor(s), dest, dest.length);
      return { read, written };
    }
  }
  const utf8Labels = ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8'];
  class TextDecoder {
    constructor(label = 'utf-8', options = undefined) {
      const l = StringCtor(label).trim().toLowerCase();
      if (utf8Labels.indexOf(l) < 0) throw new RangeError('The "' + StringCtor(label) + '" encoding is not supported');
      const o = options === undefined || options === null ? {} : options;
      hidden(this, '_fatal', !!o.fatal);
      hidden(this, '_ignoreBOM', !!o.ignoreBOM);
      hidden(this, '_pending', []);
      hidden(this, '_bomSeen', false);
    }
    get encoding() { return 'utf-8'; }
    get fatal() { return this._fatal; }
    get ignoreBOM() { return this._ignoreBOM; }
    decode(buf, options = undefined) {
      const stream = !!(options && options.stream);
      let b;
      if (buf === undefined) b = new Uint8Array(0);
      else if (buf instanceof ArrayBuffer) b = new Uint8Array(buf);
      else if (ArrayBuffer.isView(buf)) b = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      else throw new TypeErrorCtor('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.');
      if (this._pending.length) {
        const joined = new Uint8Array(this._pending.length + b.length);
        joined.set(this._pending, 0);
        joined.set(b, this._pending.length);
        b = joined;
        this._pending = [];
      }
      let out = '';
      let i = 0;
      // a BOM is dropped only at the start of a stream
      if (!this._bomSeen && !this._ignoreBOM && b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
      if (b.length > 0) this._bomSeen = true;
      const bad = () => {
        if (this._fatal) {
          this._pending = [];
          this._bomSeen = false;
          const e = new TypeErrorCtor('The encoded data was not valid for encoding utf-8');
          field(e, 'code', 'ERR_ENCODING_INVALID_ENCODED_DATA');
          throw e;
        }
        out += '\ufffd';
      };
      while (i < b.length) {
        const c = b[i];
        if (c < 0x80) { out += StringCtor.fromCharCode(c); i++; continue; }
        let n = 0, cp = 0, lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 31; }
        else if (c >= 0xe0 && c <= 0xef) { n = 2; cp = c & 15; if (c === 0xe0) lo = 0xa0; if (c === 0xed) hi = 0x9f; }
        else if (c >= 0xf0 && c <= 0xf4) { n = 3; cp = c & 7; if (c === 0xf0) lo = 0x90; if (c === 0xf4) hi = 0x8f; }
        else { bad(); i++; continue; }
        let j = 1;
        for (; j <= n; j++) {
          if (i + j >= b.length) break;
          const d = b[i + j];
          if (d < (j === 1 ? lo : 0x80) || d > (j === 1 ? hi : 0xbf)) break;
          cp = (cp << 6) | (d & 63);
        }
        if (j > n) { out += StringCtor.fromCodePoint(cp); i += n + 1; continue; }
        if (i + j >= b.length && stream) { this._pending = arrayFrom(b.subarray(i)); break; }
        bad();
        i += j;
      }
      if (!stream) this._bomSeen = false;
      return out;
    }
  }
  polyfill(G, 'TextEncoder', TextEncoder);
  polyfill(G, 'TextDecoder', TextDecoder);

  // ---- values crossing the boundary ----
  // JSON, plus: BigInt -> decimal string, Map -> object, Set -> array. The
  // conversion is a replacer used only here, at the boundary, so that the
  // program's own JSON.stringify behaves as in Node (1n throws, a Map is {}).
  const bigintToString = BigInt.prototype.toString;
  const isPrototypeOf = O.prototype.isPrototypeOf;
  const MapProto = MapCtor.prototype, SetProto = SetCtor.prototype;
  function boundary(k, v) {
    if (typeof v === 'bigint') return apply(bigintToString, v, []);
    if (v !== null && typeof v === 'object') {
      if (apply(isPrototypeOf, MapProto, [v])) return fromEntries(v);
      if (apply(isPrototypeOf, SetProto, [v])) return arrayFrom(v);
    }
    return v;
  }
  function encode(v) {
    // plain data (no BigInt, Map, Set, toJSON, getter or Proxy) is
    // encoded in C without calling the replacer: the text is the same
    const s = plainEncode(v);
    return s !== null ? s : jsonStringify(v, boundary);
  }

  function readable(f) {
    try {
      const v = f();
      if (v === undefined) return undefined;
      const s = StringCtor(v);
      return s.length > MAX_TEXT ? apply(stringSlice, s, [0, MAX_TEXT]) + '…' : s;
    } catch (_) {
      return '[unreadable]';
    }
  }

  // Errors made by the host (tool failures) carry a stable code. The code
  // a run reports is the one recorded here when the error was made, never
  // what the program later wrote into e.code.
  const hostErrorCodes = new WeakMapCtor();
  function field(obj, name, value) {
    defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: true });
  }
  class ToolError extends ErrorCtor {
    constructor(message, code, tool) {
      super(message);
      hidden(this, 'name', 'ToolError');
      field(this, 'code', code);
      if (tool) field(this, 'tool', tool);
    }
  }
  hidden(G, 'ToolError', ToolError);

  // format(e, errorCode) -> JSON text describing a thrown value.
  // out has no prototype, so setters a program put on Object.prototype
  // cannot add fields (such as errorCode) while it is filled in.
  function format(e, errorCode) {
    const out = O.create(null);
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      out.name = readable(() => e.name);
      out.message = readable(() => e.message);
      out.stack = readable(() => e.stack);
      const code = readable(() => e.code);
      if (code !== undefined) out.code = code;
      const hostCode = apply(weakMapGet, hostErrorCodes, [e]);
      if (hostCode !== undefined) out.errorCode = hostCode;
      let isError = false;
      try { isError = e instanceof ErrorCtor; } catch (_) { /* a hostile Proxy */ }
      if (!isError) out.value = readable(() => inspect(e, 0));
    } else {
      out.thrown = typeof e;
      out.message = readable(() => (typeof e === 'string' ? e : inspect(e, 0)));
    }
    if (errorCode) out.errorCode = errorCode;
    return jsonStringify(out);
  }

  // ---- console ----
  function inspect(v, depth, seen) {
    switch (typeof v) {
      case 'string': return depth === 0 ? v : jsonStringify(v);
      case 'bigint': return StringCtor(v) + 'n';
      case 'function': return '[Function: ' + (v.name || 'anonymous') + ']';
      case 'symbol': return StringCtor(v);
      case 'undefined': return 'undefined';
      case 'object': break;
      case 'number': return v === 0 && 1 / v < 0 ? '-0' : StringCtor(v);
      default: return StringCtor(v);
    }
    if (v === null) return 'null';
    if (v instanceof ErrorCtor) return StringCtor(v.stack ? v.name + ': ' + v.message + '\n' + v.stack : v);
    if (v instanceof Date) return isNaN(v) ? 'Invalid Date' : v.toISOString();
    if (v instanceof RegExp) return StringCtor(v);
    seen = seen || new SetCtor();
    if (seen.has(v)) return '[Circular]';
    if (depth > 4) return isArray(v) ? '[Array]' : '[Object]';
    seen.add(v);
    const parts = [];
    let body;
    if (isArray(v) || ArrayBuffer.isView(v)) {
      const n = Math.min(v.length, 100);
      for (let i = 0; i < n; i++) {
        if (!(i in v)) { // holes, as Node shows them
          let j = i;
          while (j + 1 < n && !(j + 1 in v)) j++;
          apply(arrayPush, parts, ['<' + (j - i + 1) + ' empty item' + (j > i ? 's' : '') + '>']);
          i = j;
          continue;
        }
        apply(arrayPush, parts, [inspect(v[i], depth + 1, seen)]);
      }
      if (v.length > n) apply(arrayPush, parts, ['... ' + (v.length - n) + ' more items']);
      body = '[' + apply(arrayJoin, parts, [', ']) + ']';
    } else if (v instanceof MapCtor) {
      for (const [k, x] of v) apply(arrayPush, parts, [inspect(k, depth + 1, seen) + ' => ' + inspect(x, depth + 1, seen)]);
      body = 'Map(' + v.size + ') {' + apply(arrayJoin, parts, [', ']) + '}';
    } else if (v instanceof SetCtor) {
      for (const x of v) apply(arrayPush, parts, [inspect(x, depth + 1, seen)]);
      body = 'Set(' + v.size + ') {' + apply(arrayJoin, parts, [', ']) + '}';
    } else {
      const keys = objectKeys(v);
      for (const k of keys.slice(0, 100)) apply(arrayPush, parts, [(/^[A-Za-z_$][\w$]*$/.test(k) ? k : jsonStringify(k)) + ': ' + inspect(v[k], depth + 1, seen)]);
      if (keys.length > 100) apply(arrayPush, parts, ['... ' + (keys.length - 100) + ' more keys']);
      body = '{' + (parts.length ? ' ' + apply(arrayJoin, parts, [', ']) + ' ' : '') + '}';
    }
    seen.delete(v);
    return body;
  }
  function shown(v) {
    try { return inspect(v, 0); } catch (_) { return '[unprintable]'; }
  }
  // printf-style directives in a first argument that is a string:
  // console.js, compiled the first time a line has one (hostSource).
  let substituteImpl;
  function substitute(fmt, args) {
    if (!substituteImpl) {
      // an array, not an object: no property names for the snapshot's atoms
      substituteImpl = evalFn(hostSource('console'))([inspect, shown, jsonStringify, StringCtor, NumberCtor, parseIntFn, parseFloatFn,
        apply, stringSlice, stringIncludes]);
    }
    return substituteImpl(fmt, args);
  }
  function logger(level) {
    return function (...args) {
      let text = '';
      if (typeof args[0] === 'string' && args.length > 1 && apply(stringIncludes, args[0], ['%'])) {
        text = substitute(args[0], args);
      } else {
        for (let i = 0; i < args.length; i++) text += (i ? ' ' : '') + shown(args[i]);
      }
      send(EV_LOG, level, text);
    };
  }
  const console = {};
  const levels = { log: 0, info: 1, warn: 2, error: 3, debug: 4, trace: 4 };
  for (const k of objectKeys(levels)) hidden(console, k, logger(levels[k]));
  hidden(G, 'console', console);

  // ---- host calls ----
  // plainCall and nativeCall (glue.c) send the call and keep its promise;
  // the host's answer resolves it in C, or rejects it with the error that
  // settle below makes.
  function call(tool, args) {
    // plain data (and a missing argument, which is {}: the declarations
    // make it optional) is encoded in C, as encode would
    const p = plainCall(tool, args);
    return p !== null ? p : encodedCall(tool, args);
  }
  // the call of a tool whose arguments are not plain data
  function encodedCall(tool, args) {
    let a;
    try {
      a = jsonStringify(args, boundary);
    } catch (e) {
      return PromiseCtor.reject(e);
    }
    return nativeCall(tool, a === undefined ? 'null' : a);
  }
  function settle(tool, text) {
    // read only the host's own fields: getters a program put on
    // Object.prototype must not decide what the error says
    let info = null;
    try { info = jsonParse(text); } catch (_) { /* not JSON: the text is the message */ }
    const own = (k) => (info !== null && typeof info === 'object' && apply(hasOwnProp, info, [k]) ? info[k] : undefined);
    const message = info === null ? text : own('message');
    const code = StringCtor(own('code') || 'TOOL_ERROR');
    const err = new ToolError(StringCtor(message === undefined ? '' : message), code, tool[0] === '$' ? undefined : tool);
    const details = own('details');
    if (details !== undefined) field(err, 'details', details);
    apply(weakMapSet, hostErrorCodes, [err, code]);
    return err;
  }

  // notCallback is Node's ERR_INVALID_ARG_TYPE TypeError for a callback
  // that is not a function: argtype.js, compiled on first use
  // (hostSource), names what it got.
  let argTypeImpl;
  function notCallback(fn) {
    if (!argTypeImpl) argTypeImpl = evalFn(hostSource('argtype'))([TypeErrorCtor, StringCtor, getPrototypeOf, apply, stringSlice, hidden]);
    return argTypeImpl('callback', 'function', fn);
  }

  // ---- timers, served by the host's clock ----
  let nextTimer = 0;
  const cancelled = O.create(null);
  function timer(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw notCallback(fn);
    const id = ++nextTimer;
    // as Node: a delay below 1 ms (0, negative, NaN) or past 2^31-1 ms
    // (about 24.8 days) is 1 ms, so setTimeout(f, 0) and setTimeout(g, 1)
    // run in the order they were set
    let delay = +ms;
    if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
    const tick = () => {
      apply(promiseThen, call('$sleep', { ms: delay }), [() => {
        if (cancelled[id]) return;
        if (!repeat) cancelled[id] = true;
        // a throw here is uncaught, as in Node: it fails the run
        try {
          apply(fn, undefined, args);
        } catch (e) {
          fail(e);
          return;
        }
        if (repeat && !cancelled[id]) tick();
      }]);
    };
    tick();
    return id;
  }
  hidden(G, 'setTimeout', function setTimeout(fn, ms, ...args) { return timer(fn, ms, args, false); });
  hidden(G, 'setInterval', function setInterval(fn, ms, ...args) { return timer(fn, ms, args, true); });
  hidden(G, 'clearTimeout', function clearTimeout(id) { cancelled[id] = true; });
  hidden(G, 'clearInterval', function clearInterval(id) { cancelled[id] = true; });
  hidden(G, 'queueMicrotask', function queueMicrotask(fn) {
    if (typeof fn !== 'function') throw notCallback(fn);
    // a throw in the callback is uncaught, as in Node: it fails the run
    apply(promiseThen, PromiseCtor.resolve(), [() => {
      try { apply(fn, undefined, []); } catch (e) { fail(e); }
    }]);
  });
  const t0 = Date.now();
  hidden(G, 'performance', { now() { return Date.now() - t0; }, timeOrigin: t0 });

  // ---- built-in capabilities: sh(), fetch(), fs ----
  // Each exists only when the configuration enables it; each is a host call
  // like a tool (key "sh", "fetch", "fs.<op>"), with the same policies.
  const Uint8ArrayCtor = Uint8Array;
  const ArrayBufferCtor = ArrayBuffer;
  const isView = ArrayBuffer.isView;
  function bytesOf(v, what) {
    if (v instanceof Uint8ArrayCtor) return v;
    if (v instanceof ArrayBufferCtor) return new Uint8ArrayCtor(v);
    if (isView(v)) return new Uint8ArrayCtor(v.buffer, v.byteOffset, v.byteLength);
    throw new TypeErrorCtor(what + ' must be a string, an ArrayBuffer or a typed array');
  }
  function b64encode(b) {
    let out = '';
    const n = b.length;
    for (let i = 0; i < n; i += 3) {
      const x = (b[i] << 16) | ((i + 1 < n ? b[i + 1] : 0) << 8) | (i + 2 < n ? b[i + 2] : 0);
      out += B64[x >> 18] + B64[(x >> 12) & 63] + (i + 1 < n ? B64[(x >> 6) & 63] : '=') + (i + 2 < n ? B64[x & 63] : '=');
    }
    return out;
  }
  const B64INDEX = O.create(null);
  for (let i = 0; i < 64; i++) B64INDEX[B64[i]] = i;
  function b64decode(s) {
    s = StringCtor(s);
    let len = s.length;
    while (len > 0 && s[len - 1] === '=') len--;
    const out = new Uint8ArrayCtor((len * 3) >> 2);
    let bits = 0, acc = 0, j = 0;
    for (let i = 0; i < len; i++) {
      const v = B64INDEX[s[i]];
      if (v === undefined) throw new TypeErrorCtor('invalid base64 from the host');
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) { bits -= 8; out[j++] = (acc >> bits) & 255; }
    }
    return out;
  }
  const utf8Encoder = new TextEncoder();
  const utf8Decoder = new TextDecoder();
  function pick(src, names) {
    const out = {};
    if (src === undefined || src === null) return out;
    if (typeof src !== 'object') throw new TypeErrorCtor('options must be an object');
    for (const k of names) if (src[k] !== undefined) out[k] = src[k];
    return out;
  }
  function then(p, f) { return apply(promiseThen, p, [f]); }

  // Each built-in's JavaScript lives in its own folder
  // (internal/builtin/<name>/prelude.js); internal/guest assembles them
  // (builtins.js) and places them here, each in its own function scope.
  // Each registers itself with builtin({name, install, off, namespace}):
  // install defines the global, off names the configuration that enables
  // it (for the stand-in a run gets when it is off), namespace marks a
  // global object of functions (fs) rather than a function.
  const builtinList = [];
  function builtin(d) { apply(arrayPush, builtinList, [d]); }
  //@builtins
  function installBuiltins(setup) {
    const b = setup.builtins || {};
    for (let i = 0; i < builtinList.length; i++) if (b[builtinList[i].name]) builtinList[i].install();
    for (let i = 0; i < builtinList.length; i++) {
      const d = builtinList[i];
      if (!b[d.name] && !(d.name in G)) hidden(G, d.name, missing.builtinOff(d.name, d.off, d.namespace));
    }
  }

  // ---- calls to what does not exist: TOOL_NOT_FOUND, with suggestions ----
  // tools and each namespace are Proxies whose missing names are functions
  // that reject with TOOL_NOT_FOUND naming the call and the closest names
  // (getSum, get-sum and get_sum count as the same words); sh, fetch and fs
  // when off reject the same way, naming the configuration that turns them
  // on. Nothing here reaches the host. Only primordials captured here are
  // used, and no array iterators: the program may have replaced them.
  const missing = (() => {
    const ProxyCtor = Proxy;
    const reflectGet = Reflect.get;
    const lower = String.prototype.toLowerCase;
    const sortArr = Array.prototype.sort;
    const mathMin = Math.min;
    const mathMax = Math.max;
    const reTest = RegExp.prototype.test;
    const identRE = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
    const seps = { '-': true, '_': true, ' ': true, '.': true };
    const plus = (path, k) => {
      const out = [];
      for (let i = 0; i < path.length; i++) out[i] = path[i];
      out[path.length] = k;
      return out;
    };
    // words drops case and the separators of camelCase, kebab-case and
    // snake_case spellings
    const words = (s) => {
      const l = apply(lower, s, []);
      let out = '';
      for (let i = 0; i < l.length; i++) if (seps[l[i]] !== true) out += l[i];
      return out;
    };
    function distance(a, b) {
      if (a.length > 64 || b.length > 64) return 99;
      let prev = [];
      for (let j = 0; j <= b.length; j++) prev[j] = j;
      for (let i = 1; i <= a.length; i++) {
        const cur = [i];
        for (let j = 1; j <= b.length; j++) {
          cur[j] = mathMin(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        }
        prev = cur;
      }
      return prev[b.length];
    }
    // closest is the names in have closest to name, best first, at most 3
    function closest(name, have) {
      const w = words(name);
      const scored = [];
      for (let i = 0; i < have.length; i++) {
        const d = distance(w, words(have[i]));
        if (d <= mathMax(2, w.length / 3 | 0)) apply(arrayPush, scored, [[d, have[i]]]);
      }
      apply(sortArr, scored, [(x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1)]);
      const out = [];
      for (let i = 0; i < scored.length && i < 3; i++) apply(arrayPush, out, [scored[i][1]]);
      return out;
    }
    function notFound(label, message) {
      const err = new ToolError(message, 'TOOL_NOT_FOUND', label);
      apply(weakMapSet, hostErrorCodes, [err, 'TOOL_NOT_FOUND']);
      return err;
    }
    const show = (path) => {
      let s = 'tools';
      for (let i = 0; i < path.length; i++) {
        const p = path[i];
        s += apply(reTest, identRE, [p]) ? '.' + p : '[' + jsonStringify(p) + ']';
      }
      return s;
    };
    const special = (k) => typeof k !== 'string' || k === 'then' || k === 'toJSON';
    // rejecter is what a missing name at path is: calling it rejects, and
    // its properties are missing names below it.
    function rejecter(path, why) {
      const fn = function () {
        return PromiseCtor.reject(notFound(apply(arrayJoin, path, ['.']), why()));
      };
      return new ProxyCtor(fn, {
        get(t, k) {
          if (special(k)) return reflectGet(t, k);
          return rejecter(plus(path, k), () => show(path) + ' is not a tool namespace, so ' + show(plus(path, k)) + ' is not a tool either. ' + why());
        },
      });
    }
    // wrap makes node (the object at path under tools) answer missing
    // names, and its namespaces too. The Proxy is node's prototype, not
    // node itself: a name node has (every tool) is read without a trap,
    // and only a missing one reaches the Proxy, whose target stands in for
    // node's old prototype (so inherited names such as toString resolve).
    function wrap(node, path) {
      const keys = objectKeys(node);
      for (let i = 0; i < keys.length; i++) {
        const v = node[keys[i]];
        if (v !== null && typeof v === 'object') node[keys[i]] = wrap(v, plus(path, keys[i]));
      }
      setPrototypeOf(node, new ProxyCtor(O.create(getPrototypeOf(node)), {
        get(t, k, r) {
          if (special(k) || k in t) return reflectGet(t, k, r);
          const at = plus(path, k);
          return rejecter(at, () => {
            const names = objectKeys(node);
            const near = closest(k, names);
            const msg = show(at) + ' is not a tool';
            if (near.length > 0) {
              const shown = [];
              for (let i = 0; i < near.length; i++) apply(arrayPush, shown, [show(plus(path, near[i]))]);
              return msg + '; did you mean ' + apply(arrayJoin, shown, [' or ']) + '?';
            }
            if (names.length === 0) return msg + (path.length === 0 ? ': the toolbox has no tools' : '');
            const some = [];
            for (let i = 0; i < names.length && i < 8; i++) apply(arrayPush, some, [names[i]]);
            return msg + '; ' + show(path) + ' has ' + apply(arrayJoin, some, [', ']) + (names.length > 8 ? ', …' : '') +
              ' (tools.search("words") finds tools by what they do)';
          });
        },
      }));
      return node;
    }
    // builtinOff is the stand-in for a built-in the configuration left off.
    function builtinOff(name, key, namespace) {
      const why = () => name + ' is not enabled: ' + key + ' turns it on';
      const fn = function () { return PromiseCtor.reject(notFound(name, why())); };
      if (!namespace) return fn;
      return new ProxyCtor(O.create(null), {
        get(t, k) {
          if (special(k)) return undefined;
          return function () { return PromiseCtor.reject(notFound(name + '.' + k, why())); };
        },
      });
    }
    return { wrap, builtinOff };
  })();

  // ---- the program ----
  function installTools(setup) {
    const tools = {};
    const own = (o, k) => O.prototype.hasOwnProperty.call(o, k);
    const prop = (o, k, v) => defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    for (const t of setup.tools || []) {
      let node = tools;
      const path = t.path;
      for (let i = 0; i < path.length - 1; i++) {
        if (!own(node, path[i])) prop(node, path[i], {});
        node = node[path[i]];
      }
      const key = t.key;
      // a function of one argument, as call(key, args) but in C
      const fn = makeTool(key, encodedCall);
      defineProperty(fn, 'name', { value: path[path.length - 1] });
      prop(node, path[path.length - 1], fn);
      // the original name stays reachable: tools.ns["get-sum"]
      if (t.alias && !own(node, t.alias)) hidden(node, t.alias, fn);
    }
    if (setup.search) {
      hidden(tools, 'search', function search(query, options) {
        return call('$search', { query: StringCtor(query), limit: options && options.limit, full: !!(options && options.full) });
      });
    }
    const wrapped = missing.wrap(tools, []);
    hidden(G, 'tools', wrapped);
    for (const ns of setup.globals || []) {
      if (own(tools, ns) && !(ns in G)) hidden(G, ns, tools[ns]);
    }
  }
  function fail(e, code) {
    if (e === null && memRefused()) {
      // QuickJS throws null when it cannot even make its out-of-memory
      // error: report that error (MEMORY_LIMIT), with nothing to allocate
      send(EV_ERROR, 0, '{"name":"InternalError","message":"out of memory"}');
      return;
    }
    let text;
    try {
      text = format(e, code);
    } catch (_) {
      send(EV_ERROR, 2, ''); // ERR_UNFORMATTED
      return;
    }
    send(EV_ERROR, 0, text);
  }
  // The glue (mb_run) calls tools(setup), builtins(setup), the program's
  // function and start(threw, p) one after the other, each from C, and the
  // result's encoding is inline: under wazero every JS frame on the call
  // stack is ~6 KiB, and a run's call stack grows by doubling (memory per
  // live run). p is the program's promise, or what its call threw.
  function start(threw, p) {
    if (threw) {
      fail(p);
      return;
    }
    // await, not p.then: then would consult Promise[Symbol.species],
    // which the program may have replaced
    (async () => {
      let v, text;
      try {
        v = await p;
      } catch (e) {
        fail(e);
        return;
      }
      try {
        text = v === undefined ? '' : encode(v);
      } catch (e) {
        fail(e, 'VALUE_NOT_SERIALIZABLE');
        return;
      }
      send(EV_RESULT, 0, text === undefined ? '' : text);
    })();
  }
  return { tools: installTools, builtins: installBuiltins, start, settle, format: (e) => format(e) };
})();
