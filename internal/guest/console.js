// modebox console directives: printf-style directives in a console call's
// first argument, as Node's console reads them (util.format): %s %d %i %f
// %j %o %O %c and %%. A function expression the prelude compiles (indirect
// eval) the first time a console line has a directive, so the snapshot
// every run restores holds none of it (the host serves the text:
// guest.Sources). It receives what it needs from the prelude, captured
// at init, and returns substitute(fmt, args), which writes args[0] with
// its directives filled from args[1...] and the arguments left over
// after it.
(function (deps) {
  'use strict';
  const [inspect, shown, jsonStringify, StringCtor, NumberCtor, parseIntFn, parseFloatFn, apply, stringSlice, stringIncludes] = deps;
  function directive(c, a) {
    switch (c) {
      case 's':
        if (typeof a === 'bigint') return StringCtor(a) + 'n';
        if (typeof a === 'symbol') return StringCtor(a);
        return inspect(a, typeof a === 'object' && a !== null ? 1 : 0);
      case 'd':
      case 'i':
      case 'f':
        if (typeof a === 'bigint') return c === 'f' ? StringCtor(a) : StringCtor(a) + 'n';
        if (typeof a === 'symbol') return 'NaN';
        if (c === 'i') return inspect(parseIntFn(a), 0);
        if (c === 'f') return inspect(parseFloatFn(a), 0);
        return inspect(typeof a === 'object' && a !== null ? NaN : NumberCtor(a), 0);
      case 'j': {
        let s;
        try { s = jsonStringify(a); } catch (_) { return '[Circular]'; }
        return s === undefined ? 'undefined' : s;
      }
      case 'c':
        return '';
    }
    return inspect(a, 1); // %o, %O
  }
  return function substitute(fmt, args) {
    let out = '', next = 1, last = 0;
    for (let i = 0; i < fmt.length - 1; i++) {
      if (fmt[i] !== '%') continue;
      const c = fmt[i + 1];
      let s;
      if (c === '%') s = '%';
      else if (next >= args.length || !apply(stringIncludes, 'sdifjoOc', [c])) continue;
      else {
        try { s = directive(c, args[next++]); } catch (_) { s = '[unprintable]'; }
      }
      out += apply(stringSlice, fmt, [last, i]) + s;
      last = i + 2;
      i++;
    }
    out += apply(stringSlice, fmt, [last]);
    for (; next < args.length; next++) out += ' ' + shown(args[next]);
    return out;
  };
})
