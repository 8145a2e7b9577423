// modebox's Array.fromAsync (in Node 22, which QuickJS lacks): an async
// iterable's values as they come, a sync iterable's or an array-like's
// awaited one by one, each mapped value awaited; a constructor this
// (Array, a subclass) makes the result, as in Array.from. A function
// expression the prelude compiles (indirect eval) the first time a program
// calls it; the host serves the text (guest.Sources), so the snapshot every
// run restores holds none of it. It returns the async function.
(function (deps) {
  'use strict';
  const [ArrayCtor, TypeErrorCtor, StringCtor, O, apply, construct, defineProperty] = deps;
  const isConstructor = (f) => {
    try { construct(function () {}, [], f); return true; } catch { return false; }
  };
  const defineElement = (a, k, value) => defineProperty(a, k, { value, writable: true, enumerable: true, configurable: true });
  return async function fromAsync(items, mapfn, thisArg) {
    if (mapfn !== undefined && typeof mapfn !== 'function') throw new TypeErrorCtor(StringCtor(mapfn) + ' is not a function');
    if (items == null) throw new TypeErrorCtor(`Cannot read properties of ${items} (reading 'Symbol(Symbol.asyncIterator)')`);
    const C = this;
    const put = async (a, k, v) => defineElement(a, k, mapfn === undefined ? v : await apply(mapfn, thisArg, [v, k]));
    if (items[Symbol.asyncIterator] != null || items[Symbol.iterator] != null) {
      const a = isConstructor(C) ? new C() : [];
      let k = 0;
      // for await awaits a sync iterable's values, not an async one's
      for await (const v of items) await put(a, k++, v);
      a.length = k;
      return a;
    }
    const o = O(items);
    const len = Math.min(Math.max(Math.trunc(+o.length) || 0, 0), Number.MAX_SAFE_INTEGER);
    const a = isConstructor(C) ? new C(len) : new ArrayCtor(len);
    for (let k = 0; k < len; k++) await put(a, k, await o[k]);
    a.length = len;
    return a;
  };
})
