// modebox's ES2025 Set methods, after the spec: GetSetRecord checks the
// argument (size a number, has and keys functions), and the smaller set
// drives the walk (intersection's order follows it). A function expression
// the prelude compiles (indirect eval) the first time a program calls one
// of them; the host serves the text (guest.Sources), so the snapshot every
// run restores holds none of it. It returns the methods by name.
(function (deps) {
  'use strict';
  const [SetCtor, TypeErrorCtor, StringCtor, apply] = deps;
  const SP = SetCtor.prototype, setHas = SP.has, setAdd = SP.add, setDelete = SP.delete;
  const setSize = Object.getOwnPropertyDescriptor(SP, 'size').get;
  const setRecord = (o, name) => {
    if (o === null || (typeof o !== 'object' && typeof o !== 'function')) throw new TypeErrorCtor('Set.prototype.' + name + ' argument must be an object');
    const n = +o.size;
    if (n !== n) throw new TypeErrorCtor('The .size property is NaN');
    const size = Math.trunc(n);
    if (size < 0) throw new RangeError("'" + StringCtor(size) + "' is an invalid size");
    const has = o.has, keys = o.keys;
    if (typeof has !== 'function') throw new TypeErrorCtor(typeof has + ' "has" is not a function');
    if (typeof keys !== 'function') throw new TypeErrorCtor(typeof keys + ' "keys" is not a function');
    return { o, size, has, keys };
  };
  const thisSize = (s, name) => {
    try { return apply(setSize, s, []); } catch (e) { throw new TypeErrorCtor('Method Set.prototype.' + name + ' called on incompatible receiver ' + (typeof s === 'object' && s !== null ? '#<Object>' : StringCtor(s))); }
  };
  const recHas = (r, v) => !!apply(r.has, r.o, [v]);
  // calls f with each key of the record until f returns true (then the
  // iterator is closed)
  const eachKey = (r, f) => {
    const it = apply(r.keys, r.o, []);
    if (it === null || (typeof it !== 'object' && typeof it !== 'function')) throw new TypeErrorCtor('Result of the keys method is not an object');
    const next = it.next;
    if (typeof next !== 'function') throw new TypeErrorCtor(typeof next + ' "next" is not a function');
    for (;;) {
      const x = apply(next, it, []);
      if (x === null || (typeof x !== 'object' && typeof x !== 'function')) throw new TypeErrorCtor('Iterator result ' + StringCtor(x) + ' is not an object');
      if (x.done) return;
      if (f(x.value)) { const ret = it.return; if (ret !== undefined && ret !== null) apply(ret, it, []); return; }
    }
  };
  return {
    union(o) {
      thisSize(this, 'union'); const r = setRecord(o, 'union');
      const out = new SetCtor(this); eachKey(r, (v) => { apply(setAdd, out, [v]); }); return out;
    },
    intersection(o) {
      const n = thisSize(this, 'intersection'), r = setRecord(o, 'intersection'), out = new SetCtor();
      if (n <= r.size) { for (const v of [...apply(SP.values, this, [])]) if (recHas(r, v)) apply(setAdd, out, [v]); }
      else eachKey(r, (v) => { if (apply(setHas, this, [v])) apply(setAdd, out, [v]); });
      return out;
    },
    difference(o) {
      const n = thisSize(this, 'difference'), r = setRecord(o, 'difference'), out = new SetCtor(this);
      if (n <= r.size) { for (const v of [...apply(SP.values, this, [])]) if (recHas(r, v)) apply(setDelete, out, [v]); }
      else eachKey(r, (v) => { if (apply(setHas, this, [v])) apply(setDelete, out, [v]); });
      return out;
    },
    symmetricDifference(o) {
      thisSize(this, 'symmetricDifference'); const r = setRecord(o, 'symmetricDifference'), out = new SetCtor(this);
      eachKey(r, (v) => { if (apply(setHas, this, [v])) apply(setDelete, out, [v]); else apply(setAdd, out, [v]); });
      return out;
    },
    isSubsetOf(o) {
      const n = thisSize(this, 'isSubsetOf'), r = setRecord(o, 'isSubsetOf');
      if (n > r.size) return false;
      for (const v of [...apply(SP.values, this, [])]) if (!recHas(r, v)) return false;
      return true;
    },
    isSupersetOf(o) {
      const n = thisSize(this, 'isSupersetOf'), r = setRecord(o, 'isSupersetOf');
      if (n < r.size) return false;
      let ok = true;
      eachKey(r, (v) => { if (!apply(setHas, this, [v])) { ok = false; return true; } return false; });
      return ok;
    },
    isDisjointFrom(o) {
      const n = thisSize(this, 'isDisjointFrom'), r = setRecord(o, 'isDisjointFrom');
      let ok = true;
      if (n <= r.size) { for (const v of [...apply(SP.values, this, [])]) if (recHas(r, v)) return false; }
      else eachKey(r, (v) => { if (apply(setHas, this, [v])) { ok = false; return true; } return false; });
      return ok;
    },
  };
})
