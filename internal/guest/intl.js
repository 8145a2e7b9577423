// modebox Intl: the guest side. Each Intl object keeps its constructor's
// arguments as JSON text; every operation is one synchronous host call
// (__modebox_sync) answered by internal/intl on the host, from CLDR data
// in the binary. Evaluated at init before the prelude, which it leaves
// untouched; everything it uses is captured here.
(function () {
  'use strict';
  const G = globalThis;
  const sync = G.__modebox_sync; // the prelude takes it away after this
  const O = Object;
  const defineProperty = O.defineProperty;
  const jsonParse = JSON.parse;
  const jsonStringify = JSON.stringify;
  const StringCtor = String, NumberCtor = Number, BooleanCtor = Boolean;
  const RangeErrorCtor = RangeError, TypeErrorCtor = TypeError, ErrorCtor = Error;
  const WeakMapCtor = WeakMap;
  const wmGet = WeakMap.prototype.get, wmSet = WeakMap.prototype.set;
  const apply = Reflect.apply;
  const isArray = Array.isArray;
  const DateCtor = Date;
  const dateGetTime = Date.prototype.getTime;
  const dateNow = Date.now;
  const mathAbs = Math.abs;
  const regexpTest = RegExp.prototype.test;

  function hidden(obj, name, value) {
    defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  }
  const errors = { RangeError: RangeErrorCtor, TypeError: TypeErrorCtor };
  const stringSlice = String.prototype.slice;
  // replies: 's' + text, 'n' + integer, 'j' + JSON, 'e' + JSON error.
  // The hot paths call sync themselves and reply() after it returns: each
  // JS call level under a host call is native stack the wasm runtime may
  // have to grow (and copy) in a fresh run.
  function ask(text) {
    return reply(sync(text));
  }
  function reply(r) {
    const kind = r[0], rest = apply(stringSlice, r, [1]);
    if (kind === 's') return rest;
    if (kind === 'n') return +rest;
    if (kind === 'j') return jsonParse(rest);
    const e = jsonParse(rest);
    throw new (errors[e.e] || ErrorCtor)(e.m);
  }

  // CanonicalizeLocaleList's input side: a list of strings.
  function localeList(locales) {
    if (locales === undefined) return [];
    if (typeof locales === 'string') return [locales];
    if (locales instanceof Locale) return [apply(localeToString, locales, [])];
    if (locales === null) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    const o = O(locales);
    const len = o.length >>> 0;
    const out = [];
    for (let i = 0; i < len; i++) {
      if (!(i in o)) continue;
      const v = o[i];
      if (v instanceof Locale) { out[out.length] = apply(localeToString, v, []); continue; }
      if (typeof v !== 'string' && (typeof v !== 'object' || v === null)) throw new TypeErrorCtor('Language ID should be string or object.');
      out[out.length] = StringCtor(v);
    }
    return out;
  }

  // Reads the options a constructor takes, once each and in order, as the
  // spec's GetOption does: s = string, n = number, b = boolean, g = useGrouping.
  function readOptions(options, spec) {
    if (options === undefined) return {};
    if (options === null) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    const o = O(options);
    const out = {};
    for (let i = 0; i < spec.length; i += 2) {
      const name = spec[i], type = spec[i + 1];
      const v = o[name];
      if (v === undefined) continue;
      if (type === 's') out[name] = StringCtor(v);
      else if (type === 'n') {
        const n = NumberCtor(v);
        if (n !== n) throw new RangeErrorCtor(name + ' value is out of range.');
        out[name] = n;
      } else if (type === 'b') out[name] = BooleanCtor(v);
      else if (type === 'g') out[name] = typeof v === 'boolean' || typeof v === 'string' ? v : BooleanCtor(v);
    }
    return out;
  }

  // The mathematical value of a number to format.
  const plainDecimal = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
  function mathValue(x) {
    if (typeof x === 'bigint') return { s: StringCtor(x), big: true }; // exact at any size, as V8
    if (typeof x === 'string' && apply(regexpTest, plainDecimal, [x])) return { s: x.trim() };
    const n = NumberCtor(x);
    if (n !== n) return { s: 'NaN' };
    if (n === Infinity) return { s: 'Infinity' };
    if (n === -Infinity) return { s: '-Infinity' };
    if (n === 0 && 1 / n < 0) return { s: '-0' };
    return n;
  }

  // how V8 names a receiver in an error: #<Constructor> for an object
  function receiverName(v) {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return typeof v === 'string' ? v : StringCtor(v);
    let n;
    try { const c = v.constructor; n = typeof c === 'function' ? c.name : undefined; } catch (e) { n = undefined; }
    return '#<' + (n || 'Object') + '>';
  }
  const slots = new WeakMapCtor();
  function slot(obj, kind, method) {
    const s = obj !== null && typeof obj === 'object' ? apply(wmGet, slots, [obj]) : undefined;
    if (!s || s.kind !== kind) throw new TypeErrorCtor('Method Intl.' + kind + '.prototype.' + method + ' called on incompatible receiver ' + receiverName(obj));
    return s;
  }
  function arg(v) {
    // a finite number's JSON is its String; everything else is stringified
    return typeof v === 'number' ? StringCtor(v) : jsonStringify(v);
  }
  function call(s, method, args) {
    let t = s.prefix + '"' + method + '"';
    for (let i = 0; i < args.length; i++) t += ',' + arg(args[i]);
    const r = sync(t + ']');
    // text and integer replies inline: no call level more under the slice
    if (r[0] === 's') return apply(stringSlice, r, [1]);
    if (r[0] === 'n') return +apply(stringSlice, r, [1]);
    return reply(r);
  }
  function prefixOf(op, locs, opts) {
    const j = jsonStringify([op, locs, opts]);
    return apply(stringSlice, j, [0, j.length - 1]) + ',';
  }
  function make(kind, op, self, locales, options, spec) {
    const locs = localeList(locales);
    const opts = readOptions(options, spec);
    const s = { kind, prefix: prefixOf(op, locs, opts), resolved: undefined };
    const r = sync(s.prefix + '"new"]'); // validates the options
    if (r[0] !== 'n') reply(r); // throws as the constructor
    apply(wmSet, slots, [self, s]);
    return s;
  }
  function resolved(s) {
    if (s.resolved === undefined) s.resolved = call(s, 'resolvedOptions', []);
    return s.resolved;
  }
  function copy(o) {
    const out = {};
    for (const k of O.keys(o)) out[k] = isArray(o[k]) ? o[k].slice() : o[k];
    return out;
  }
  function boundGetter(proto, kind, name, fn) {
    defineProperty(proto, name, {
      configurable: true, enumerable: false,
      get() {
        const s = slot(this, kind, name);
        if (!s[name]) {
          const self = this;
          const bound = fn(self, s);
          defineProperty(bound, 'name', { value: '', configurable: true });
          s[name] = bound;
        }
        return s[name];
      },
    });
  }
  function methods(proto, obj) {
    for (const k of O.keys(obj)) hidden(proto, k, obj[k]);
  }
  function tag(proto, name) {
    defineProperty(proto, Symbol.toStringTag, { value: 'Intl.' + name, configurable: true });
  }
  function supportedLocalesOf(locales, options) {
    readOptions(options, ['localeMatcher', 's']);
    return ask(jsonStringify(['supported', localeList(locales)]));
  }
  function ctor(name, fn, length) {
    defineProperty(fn, 'name', { value: name, configurable: true });
    defineProperty(fn, 'length', { value: length, configurable: true });
    hidden(fn, 'supportedLocalesOf', supportedLocalesOf);
    tag(fn.prototype, name);
    return fn;
  }

  const Intl = {};
  defineProperty(Intl, Symbol.toStringTag, { value: 'Intl', configurable: true });

  // ---- NumberFormat ----
  const nfSpec = ['localeMatcher', 's', 'numberingSystem', 's', 'style', 's', 'currency', 's', 'currencyDisplay', 's',
    'currencySign', 's', 'unit', 's', 'unitDisplay', 's', 'notation', 's', 'minimumIntegerDigits', 'n',
    'minimumFractionDigits', 'n', 'maximumFractionDigits', 'n', 'minimumSignificantDigits', 'n', 'maximumSignificantDigits', 'n',
    'roundingIncrement', 'n', 'roundingMode', 's', 'roundingPriority', 's', 'trailingZeroDisplay', 's',
    'compactDisplay', 's', 'useGrouping', 'g', 'signDisplay', 's'];
  const NumberFormat = ctor('NumberFormat', function NumberFormat(locales, options) {
    if (!new.target) return new NumberFormat(locales, options);
    make('NumberFormat', 'nf', this, locales, options, nfSpec);
  }, 0);
  boundGetter(NumberFormat.prototype, 'NumberFormat', 'format', (self, s) => (x) => {
    const r = sync(s.prefix + '"format",' + arg(mathValue(x)) + ']');
    return r[0] === 's' ? apply(stringSlice, r, [1]) : reply(r);
  });
  methods(NumberFormat.prototype, {
    formatToParts(x) { return call(slot(this, 'NumberFormat', 'formatToParts'), 'formatToParts', [mathValue(x)]); },
    resolvedOptions() { return copy(resolved(slot(this, 'NumberFormat', 'resolvedOptions'))); },
  });
  hidden(Intl, 'NumberFormat', NumberFormat);

  // ---- Collator ----
  const collSpec = ['usage', 's', 'localeMatcher', 's', 'collation', 's', 'numeric', 'b', 'caseFirst', 's', 'sensitivity', 's', 'ignorePunctuation', 'b'];
  const Collator = ctor('Collator', function Collator(locales, options) {
    if (!new.target) return new Collator(locales, options);
    make('Collator', 'coll', this, locales, options, collSpec);
  }, 0);
  boundGetter(Collator.prototype, 'Collator', 'compare', (self, s) => (a, b) => call(s, 'compare', [StringCtor(a), StringCtor(b)]));
  methods(Collator.prototype, {
    resolvedOptions() { return copy(resolved(slot(this, 'Collator', 'resolvedOptions'))); },
  });
  hidden(Intl, 'Collator', Collator);

  // ---- PluralRules ----
  const prSpec = ['localeMatcher', 's', 'type', 's', 'minimumIntegerDigits', 'n', 'minimumFractionDigits', 'n',
    'maximumFractionDigits', 'n', 'minimumSignificantDigits', 'n', 'maximumSignificantDigits', 'n',
    'roundingIncrement', 'n', 'roundingMode', 's', 'roundingPriority', 's', 'trailingZeroDisplay', 's'];
  const PluralRules = ctor('PluralRules', function PluralRules(locales, options) {
    if (!new.target) throw new TypeErrorCtor("Constructor Intl.PluralRules requires 'new'");
    make('PluralRules', 'pr', this, locales, options, prSpec);
  }, 0);
  methods(PluralRules.prototype, {
    select(x) { return call(slot(this, 'PluralRules', 'select'), 'select', [mathValue(NumberCtor(x))]); },
    resolvedOptions() { return copy(resolved(slot(this, 'PluralRules', 'resolvedOptions'))); },
  });
  hidden(Intl, 'PluralRules', PluralRules);

  // ---- ListFormat ----
  function stringList(items) {
    const out = [];
    if (items === undefined) return out;
    for (const v of items) {
      if (typeof v !== 'string') throw new TypeErrorCtor('Iterable yielded ' + StringCtor(v) + ' which is not a string');
      out[out.length] = v;
    }
    return out;
  }
  const lfSpec = ['localeMatcher', 's', 'type', 's', 'style', 's'];
  const ListFormat = ctor('ListFormat', function ListFormat(locales, options) {
    if (!new.target) throw new TypeErrorCtor("Constructor Intl.ListFormat requires 'new'");
    make('ListFormat', 'lf', this, locales, options, lfSpec);
  }, 0);
  methods(ListFormat.prototype, {
    format(items) { return call(slot(this, 'ListFormat', 'format'), 'format', [stringList(items)]); },
    formatToParts(items) { return call(slot(this, 'ListFormat', 'formatToParts'), 'formatToParts', [stringList(items)]); },
    resolvedOptions() { return copy(resolved(slot(this, 'ListFormat', 'resolvedOptions'))); },
  });
  hidden(Intl, 'ListFormat', ListFormat);

  // ---- Segmenter ----
  // The host answers segment() with each segment's end (UTF-16 index) and,
  // for words, whether each is word-like; Segments and its iterator are here.
  const mathTrunc = Math.trunc;
  const segSpec = ['localeMatcher', 's', 'granularity', 's'];
  const Segmenter = ctor('Segmenter', function Segmenter(locales, options) {
    if (!new.target) throw new TypeErrorCtor("Constructor Intl.Segmenter requires 'new'");
    make('Segmenter', 'seg', this, locales, options, segSpec);
  }, 0);
  const segmentsOf = new WeakMapCtor();
  function segData(d, i) {
    const start = i === 0 ? 0 : d.e[i - 1];
    const o = { segment: apply(stringSlice, d.input, [start, d.e[i]]), index: start, input: d.input };
    if (d.w) o.isWordLike = d.w[i];
    return o;
  }
  function segState(self, method) {
    const d = self !== null && typeof self === 'object' ? apply(wmGet, segmentsOf, [self]) : undefined;
    if (!d) throw new TypeErrorCtor('Method %Segments.prototype%.' + method + ' called on incompatible receiver ' + receiverName(self));
    return d;
  }
  const IteratorProto = O.getPrototypeOf(O.getPrototypeOf([][Symbol.iterator]()));
  const SegmentIterator = O.create(IteratorProto);
  const iterState = new WeakMapCtor();
  methods(SegmentIterator, {
    next() {
      const it = this !== null && typeof this === 'object' ? apply(wmGet, iterState, [this]) : undefined;
      if (!it) throw new TypeErrorCtor('Method %SegmentIterator.prototype%.next called on incompatible receiver ' + StringCtor(this));
      if (it.i >= it.d.e.length) return { value: undefined, done: true };
      return { value: segData(it.d, it.i++), done: false };
    },
  });
  defineProperty(SegmentIterator, Symbol.toStringTag, { value: 'Segmenter String Iterator', configurable: true });
  const SegmentsProto = {};
  methods(SegmentsProto, {
    containing(index) {
      const d = segState(this, 'containing');
      let n = NumberCtor(index);
      n = n !== n ? 0 : mathTrunc(n);
      if (n < 0 || n >= d.input.length) return undefined;
      let lo = 0, hi = d.e.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (d.e[mid] > n) hi = mid; else lo = mid + 1;
      }
      return segData(d, lo);
    },
  });
  hidden(SegmentsProto, Symbol.iterator, function () {
    const d = segState(this, '[Symbol.iterator]');
    const it = O.create(SegmentIterator);
    apply(wmSet, iterState, [it, { d, i: 0 }]);
    return it;
  });
  methods(Segmenter.prototype, {
    segment(input) {
      const s = slot(this, 'Segmenter', 'segment');
      const str = StringCtor(input);
      const d = call(s, 'segment', [str]);
      d.input = str;
      const segs = O.create(SegmentsProto);
      apply(wmSet, segmentsOf, [segs, d]);
      return segs;
    },
    resolvedOptions() { return copy(resolved(slot(this, 'Segmenter', 'resolvedOptions'))); },
  });
  hidden(Intl, 'Segmenter', Segmenter);

  // ---- DisplayNames ----
  const dnSpec = ['localeMatcher', 's', 'style', 's', 'type', 's', 'fallback', 's', 'languageDisplay', 's'];
  const DisplayNames = ctor('DisplayNames', function DisplayNames(locales, options) {
    if (!new.target) throw new TypeErrorCtor("Constructor Intl.DisplayNames requires 'new'");
    if (options === undefined) throw new TypeErrorCtor('invalid_argument');
    make('DisplayNames', 'dn', this, locales, options, dnSpec);
  }, 2);
  methods(DisplayNames.prototype, {
    of(code) {
      const r = call(slot(this, 'DisplayNames', 'of'), 'of', [StringCtor(code)]);
      return r === null ? undefined : r;
    },
    resolvedOptions() { return copy(resolved(slot(this, 'DisplayNames', 'resolvedOptions'))); },
  });
  hidden(Intl, 'DisplayNames', DisplayNames);

  // ---- RelativeTimeFormat ----
  const rtfSpec = ['localeMatcher', 's', 'numberingSystem', 's', 'style', 's', 'numeric', 's'];
  const RelativeTimeFormat = ctor('RelativeTimeFormat', function RelativeTimeFormat(locales, options) {
    if (!new.target) throw new TypeErrorCtor("Constructor Intl.RelativeTimeFormat requires 'new'");
    make('RelativeTimeFormat', 'rtf', this, locales, options, rtfSpec);
  }, 0);
  methods(RelativeTimeFormat.prototype, {
    format(v, unit) { return call(slot(this, 'RelativeTimeFormat', 'format'), 'format', [mathValue(NumberCtor(v)), StringCtor(unit)]); },
    formatToParts(v, unit) { return call(slot(this, 'RelativeTimeFormat', 'formatToParts'), 'formatToParts', [mathValue(NumberCtor(v)), StringCtor(unit)]); },
    resolvedOptions() { return copy(resolved(slot(this, 'RelativeTimeFormat', 'resolvedOptions'))); },
  });
  hidden(Intl, 'RelativeTimeFormat', RelativeTimeFormat);

  // ---- DateTimeFormat ----
  const dtfSpec = ['localeMatcher', 's', 'calendar', 's', 'numberingSystem', 's', 'hour12', 'b', 'hourCycle', 's', 'timeZone', 's',
    'weekday', 's', 'era', 's', 'year', 's', 'month', 's', 'day', 's', 'dayPeriod', 's', 'hour', 's', 'minute', 's', 'second', 's',
    'fractionalSecondDigits', 'n', 'timeZoneName', 's', 'formatMatcher', 's', 'dateStyle', 's', 'timeStyle', 's'];
  function dtfMake(self, locales, options, required, defaults) {
    const locs = localeList(locales);
    const opts = readOptions(options, dtfSpec);
    opts.$required = required;
    opts.$defaults = defaults;
    const s = { kind: 'DateTimeFormat', prefix: prefixOf('dtf', locs, opts), resolved: undefined };
    call(s, 'new', []);
    apply(wmSet, slots, [self, s]);
    return s;
  }
  function timeValue(d) {
    const t = d === undefined ? dateNow() : d instanceof DateCtor ? apply(dateGetTime, d, []) : NumberCtor(d);
    if (t !== t || mathAbs(t) > 8.64e15) throw new RangeErrorCtor('Invalid time value');
    return t;
  }
  const DateTimeFormat = ctor('DateTimeFormat', function DateTimeFormat(locales, options) {
    if (!new.target) return new DateTimeFormat(locales, options);
    dtfMake(this, locales, options, 'any', 'date');
  }, 0);
  boundGetter(DateTimeFormat.prototype, 'DateTimeFormat', 'format', (self, s) => (d) => call(s, 'format', [timeValue(d)]));
  methods(DateTimeFormat.prototype, {
    formatToParts(d) { return call(slot(this, 'DateTimeFormat', 'formatToParts'), 'formatToParts', [timeValue(d)]); },
    formatRange(a, b) {
      const s = slot(this, 'DateTimeFormat', 'formatRange');
      if (a === undefined || b === undefined) throw new TypeErrorCtor('startDate and endDate are required');
      return call(s, 'formatRange', [timeValue(a), timeValue(b)]);
    },
    formatRangeToParts(a, b) {
      const s = slot(this, 'DateTimeFormat', 'formatRangeToParts');
      if (a === undefined || b === undefined) throw new TypeErrorCtor('startDate and endDate are required');
      return call(s, 'formatRangeToParts', [timeValue(a), timeValue(b)]);
    },
    resolvedOptions() { return copy(resolved(slot(this, 'DateTimeFormat', 'resolvedOptions'))); },
  });
  hidden(Intl, 'DateTimeFormat', DateTimeFormat);

  // ---- Locale (the parts a program reads) ----
  const localeStrings = new WeakMapCtor();
  function Locale(tag, options) {
    if (!new.target) throw new TypeErrorCtor("Constructor Intl.Locale requires 'new'");
    if (typeof tag !== 'string' && !(tag instanceof Locale) && (typeof tag !== 'object' || tag === null)) throw new TypeErrorCtor('First argument to Intl.Locale constructor can\'t be empty or missing');
    const t = tag instanceof Locale ? apply(localeToString, tag, []) : StringCtor(tag);
    const info = ask(jsonStringify(['locale', t, readOptions(options, ['language', 's', 'script', 's', 'region', 's', 'calendar', 's', 'collation', 's', 'hourCycle', 's', 'caseFirst', 's', 'numeric', 'b', 'numberingSystem', 's'])]));
    apply(wmSet, localeStrings, [this, info]);
  }
  function localeInfo(self) {
    const i = apply(wmGet, localeStrings, [self]);
    if (!i) throw new TypeErrorCtor('Method Intl.Locale.prototype called on incompatible receiver');
    return i;
  }
  function localeToString() { return localeInfo(this).tag; }
  defineProperty(Locale, 'name', { value: 'Locale', configurable: true });
  tag(Locale.prototype, 'Locale');
  methods(Locale.prototype, {
    toString: localeToString,
    maximize() { return new Locale(localeInfo(this).maximized); },
    minimize() { return new Locale(localeInfo(this).minimized); },
  });
  for (const k of ['baseName', 'language', 'script', 'region', 'calendar', 'collation', 'hourCycle', 'caseFirst', 'numeric', 'numberingSystem']) {
    defineProperty(Locale.prototype, k, { configurable: true, get() { return localeInfo(this)[k]; } });
  }
  hidden(Intl, 'Locale', Locale);

  hidden(Intl, 'getCanonicalLocales', function getCanonicalLocales(locales) {
    return ask(jsonStringify(['canonical', localeList(locales)]));
  });
  hidden(G, 'Intl', Intl);

  // ---- the toLocale* methods, built on Intl ----
  const numberValueOf = Number.prototype.valueOf, bigintValueOf = BigInt.prototype.valueOf;
  // one formatter per (locales, options) when both are simple, as most calls are
  const simple = O.create(null);
  function cachedFormat(kind, C, locales, options, mk) {
    if (options === undefined && (locales === undefined || typeof locales === 'string')) {
      const k = kind + '\0' + (locales === undefined ? '' : locales);
      let f = simple[k];
      if (!f) { f = mk(); simple[k] = f; }
      return f;
    }
    return mk();
  }
  hidden(Number.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    const x = apply(numberValueOf, this, []);
    return cachedFormat('n', NumberFormat, locales, options, () => new NumberFormat(locales, options)).format(x);
  });
  hidden(BigInt.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    const x = apply(bigintValueOf, this, []);
    return cachedFormat('n', NumberFormat, locales, options, () => new NumberFormat(locales, options)).format(x);
  });
  function dateMethod(name, required, defaults) {
    hidden(DateCtor.prototype, name, function (locales, options) {
      const t = apply(dateGetTime, this, []);
      if (t !== t) return 'Invalid Date';
      const f = cachedFormat(name, DateTimeFormat, locales, options, () => {
        const o = O.create(DateTimeFormat.prototype);
        dtfMake(o, locales, options, required, defaults);
        return o;
      });
      return call(slot(f, 'DateTimeFormat', 'format'), 'format', [t]);
    });
  }
  dateMethod('toLocaleString', 'any', 'all');
  dateMethod('toLocaleDateString', 'date', 'date');
  dateMethod('toLocaleTimeString', 'time', 'time');
  hidden(String.prototype, 'localeCompare', function localeCompare(that, locales, options) {
    if (this === undefined || this === null) throw new TypeErrorCtor('String.prototype.localeCompare called on null or undefined');
    const c = cachedFormat('c', Collator, locales, options, () => new Collator(locales, options));
    return c.compare(StringCtor(this), StringCtor(that));
  });
  // Warm up at init, so that the snapshot holds the formatters most
  // programs use first (the default locale's number, date and collation).
  (1.5).toLocaleString();
  (1.5).toLocaleString('en-US');
  'a'.localeCompare('b');
  new NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(1);
  const arrayJoinSep = ',';
  // the arrays being joined, innermost last: one met again (an array that
  // holds itself) is "", as in V8 and as join and toString do
  const joining = O.create(null);
  let joinDepth = 0;
  hidden(Array.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    const o = O(this);
    for (let k = 0; k < joinDepth; k++) if (joining[k] === o) return '';
    joining[joinDepth++] = o;
    try {
      const len = o.length >>> 0;
      let out = '';
      for (let i = 0; i < len; i++) {
        if (i > 0) out += arrayJoinSep;
        const v = o[i];
        if (v !== undefined && v !== null) out += StringCtor(v.toLocaleString(locales, options));
      }
      return out;
    } finally {
      joining[--joinDepth] = undefined;
    }
  });
  const upper = String.prototype.toUpperCase, lower = String.prototype.toLowerCase;
  function caseLocale(locales) {
    const l = localeList(locales);
    if (l.length === 0) return '';
    const c = ask(jsonStringify(['canonical', [l[0]]]))[0];
    return c.split('-')[0];
  }
  hidden(String.prototype, 'toLocaleUpperCase', function toLocaleUpperCase(locales) {
    if (this === undefined || this === null) throw new TypeErrorCtor('String.prototype.toLocaleUpperCase called on null or undefined');
    let s = StringCtor(this);
    const l = caseLocale(locales);
    if (l === 'tr' || l === 'az') s = s.replace(/i/g, '\u0130');
    return apply(upper, s, []);
  });
  hidden(String.prototype, 'toLocaleLowerCase', function toLocaleLowerCase(locales) {
    if (this === undefined || this === null) throw new TypeErrorCtor('String.prototype.toLocaleLowerCase called on null or undefined');
    let s = StringCtor(this);
    const l = caseLocale(locales);
    if (l === 'tr' || l === 'az') s = s.replace(/I\u0307/g, 'i').replace(/I/g, '\u0131').replace(/\u0130/g, 'i');
    return apply(lower, s, []);
  });
})();
