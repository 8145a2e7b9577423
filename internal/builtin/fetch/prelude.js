// The fetch built-in's part of the engine prelude. It is not a module: the
// engine image's build (internal/guest, builtins.js) places it, wrapped in a
// function, inside the prelude's closure, where the primordials the prelude
// captured before any program runs (hidden, call, PromiseCtor, pick, then,
// b64encode, ...) are in scope. It runs once, at engine init, into the
// snapshot; builtin(...) registers the global, which each run installs
// only when its configuration enables fetch.
// fetch: a subset of the web API (see docs/capabilities.md).
function lower(s) { return StringCtor(s).toLowerCase(); }
class Headers {
  constructor(init) {
    hidden(this, '_h', O.create(null));
    if (init === undefined || init === null) return;
    if (init instanceof Headers) { for (const [k, v] of init) this.append(k, v); return; }
    if (isArray(init)) { for (const p of init) this.append(p[0], p[1]); return; }
    if (typeof init !== 'object') throw new TypeErrorCtor('Headers: init must be an object or an array of pairs');
    for (const k of objectKeys(init)) this.append(k, init[k]);
  }
  append(k, v) { k = lower(k); v = StringCtor(v); this._h[k] = k in this._h ? this._h[k] + ', ' + v : v; }
  set(k, v) { this._h[lower(k)] = StringCtor(v); }
  get(k) { k = lower(k); return k in this._h ? this._h[k] : null; }
  has(k) { return lower(k) in this._h; }
  delete(k) { delete this._h[lower(k)]; }
  forEach(fn, thisArg) { for (const [k, v] of this) apply(fn, thisArg, [v, k, this]); }
  *keys() { for (const k of objectKeys(this._h).sort()) yield k; }
  *values() { for (const k of this.keys()) yield this._h[k]; }
  *entries() { for (const k of this.keys()) yield [k, this._h[k]]; }
  [Symbol.iterator]() { return this.entries(); }
}
class Response {
  constructor(r) {
    hidden(this, '_r', r);
    hidden(this, '_used', false);
    this.status = r.status;
    this.statusText = r.statusText || '';
    this.ok = r.status >= 200 && r.status < 300;
    this.url = r.url;
    this.redirected = !!r.redirected;
    this.type = 'basic';
  }
  // made on first use: most programs never look at the headers
  get headers() {
    if (this._headers === undefined) hidden(this, '_headers', new Headers(this._r.headers));
    return this._headers;
  }
  get bodyUsed() { return this._used; }
  _take() {
    if (this._used) return PromiseCtor.reject(new TypeErrorCtor('the body of this response was already read'));
    this._used = true;
    return PromiseCtor.resolve(this._r);
  }
  text() { return then(this._take(), (r) => r.encoding === 'base64' ? utf8Decoder.decode(b64decode(r.body)) : r.body); }
  json() { return then(this.text(), (t) => jsonParse(t)); }
  bytes() { return then(this._take(), (r) => r.encoding === 'base64' ? b64decode(r.body) : utf8Encoder.encode(r.body)); }
  arrayBuffer() { return then(this.bytes(), (b) => b.buffer); }
  base64() { return then(this._take(), (r) => r.encoding === 'base64' ? r.body : b64encode(utf8Encoder.encode(r.body))); }
  clone() {
    if (this._used) throw new TypeErrorCtor('cannot clone a response whose body was read');
    return new Response(this._r);
  }
}
function installFetch() {
  hidden(G, 'Headers', Headers);
  hidden(G, 'Response', Response);
  hidden(G, 'fetch', function fetch(input, init) {
    let args, signal;
    try {
      init = init === undefined || init === null ? {} : init;
      if (typeof init !== 'object') throw new TypeErrorCtor('fetch: init must be an object');
      const url = typeof input === 'string' ? input : input && typeof input.url === 'string' ? input.url : StringCtor(input);
      args = { url, method: init.method === undefined ? 'GET' : StringCtor(init.method).toUpperCase() };
      if (init.headers !== undefined) args.headers = fromEntries(new Headers(init.headers).entries());
      const body = init.body;
      if (body !== undefined && body !== null) {
        if (typeof body === 'string') args.body = body;
        else args.bodyBase64 = b64encode(bytesOf(body, 'fetch: body'));
      }
      for (const k of ['signal', 'credentials', 'mode', 'cache', 'integrity', 'keepalive', 'window', 'duplex']) {
        if (init[k] !== undefined && k !== 'signal' && k !== 'credentials') throw new TypeErrorCtor('fetch: option "' + k + '" is not supported');
      }
      if (init.redirect !== undefined && init.redirect !== 'follow') throw new TypeErrorCtor('fetch: only redirect: "follow" is supported');
      signal = init.signal;
      if (signal !== undefined && signal !== null) signal.throwIfAborted();
    } catch (e) { return PromiseCtor.reject(e); }
    const p = then(call('fetch', args), (r) => new Response(r));
    if (signal === undefined || signal === null) return p;
    // an abort rejects with the signal's reason, as in Node; the request
    // itself runs on and its answer is dropped
    return new PromiseCtor((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort);
      apply(promiseThen, p, [(v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
        (e) => { signal.removeEventListener('abort', onAbort); reject(e); }]);
    });
  });
}
builtin({
  name: 'fetch',
  install: installFetch,
  off: 'modebox.json "fetch": {"enabled": true, "allow": [...]} (EngineConfig.Fetch in the library)',
});
