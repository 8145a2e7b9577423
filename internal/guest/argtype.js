// modebox's TypeError for an argument of the wrong type, worded and coded
// as Node's ERR_INVALID_ARG_TYPE ('The "callback" argument must be of type
// function. Received type number (5)'). A function expression the prelude
// compiles (indirect eval) when a program passes such an argument; the
// host serves the text (guest.Sources), so the snapshot every run restores
// holds none of it. It returns the error's maker.
(function (deps) {
  'use strict';
  const [TypeErrorCtor, StringCtor, getPrototypeOf, apply, stringSlice, hidden] = deps;
  // describe names a value as Node's messages do
  const describe = (v) => {
    if (v === null || v === undefined) return StringCtor(v);
    if (typeof v === 'function') return 'function ' + v.name;
    if (typeof v === 'object') {
      const proto = getPrototypeOf(v);
      if (proto === null) return '[Object: null prototype] {}';
      const c = proto.constructor;
      return 'an instance of ' + (typeof c === 'function' && c.name ? c.name : 'Object');
    }
    let text;
    if (typeof v === 'string') text = "'" + (v.length > 25 ? apply(stringSlice, v, [0, 25]) + '...' : v) + "'";
    else if (typeof v === 'bigint') text = StringCtor(v) + 'n';
    else if (v === 0 && 1 / v < 0) text = '-0';
    else text = StringCtor(v);
    return 'type ' + typeof v + ' (' + text + ')';
  };
  return (name, type, v) => {
    const e = new TypeErrorCtor('The "' + name + '" argument must be of type ' + type + '. Received ' + describe(v));
    hidden(e, 'code', 'ERR_INVALID_ARG_TYPE');
    return e;
  };
})
