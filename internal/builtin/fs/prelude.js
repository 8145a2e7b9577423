// The fs built-in's part of the engine prelude. It is not a module: the
// engine image's build (internal/guest, builtins.js) places it, wrapped in a
// function, inside the prelude's closure, where the primordials the prelude
// captured before any program runs (hidden, call, PromiseCtor, pick, then,
// b64encode, ...) are in scope. It runs once, at engine init, into the
// snapshot; builtin(...) registers the global, which each run installs
// only when its configuration enables fs.
function installFS() {
  const fs = {};
  const path = (p) => { if (typeof p !== 'string') throw new TypeErrorCtor('fs: path must be a string'); return p; };
  const op = (name, f) => hidden(fs, name, function (...a) {
    let args;
    try { args = apply(f, undefined, a); } catch (e) { return PromiseCtor.reject(e); }
    return call('fs.' + name, args);
  });
  hidden(fs, 'read', function read(p, options) {
    let args;
    try {
      args = { path: path(p) };
      const enc = options === undefined ? 'utf8' : typeof options === 'string' ? options : (options && options.encoding) || 'utf8';
      if (enc !== 'utf8' && enc !== 'utf-8' && enc !== 'bytes' && enc !== 'base64') throw new TypeErrorCtor('fs.read: encoding must be "utf8", "bytes" or "base64"');
      args.encoding = enc === 'utf-8' ? 'utf8' : enc;
    } catch (e) { return PromiseCtor.reject(e); }
    return then(call('fs.read', args), (r) => args.encoding === 'bytes' ? b64decode(r.content) : r.content);
  });
  hidden(fs, 'write', function write(p, data) {
    let args;
    try {
      args = { path: path(p) };
      if (typeof data === 'string') args.content = data;
      else args.contentBase64 = b64encode(bytesOf(data, 'fs.write: data'));
    } catch (e) { return PromiseCtor.reject(e); }
    return then(call('fs.write', args), () => undefined);
  });
  hidden(fs, 'remove', function remove(p) {
    let args;
    try { args = { path: path(p) }; } catch (e) { return PromiseCtor.reject(e); }
    return then(call('fs.remove', args), () => undefined);
  });
  op('list', (p) => ({ path: path(p) }));
  op('stat', (p) => ({ path: path(p) }));
  op('exists', (p) => ({ path: path(p) }));
  op('glob', (pattern) => ({ pattern: path(pattern) }));
  O.freeze(fs);
  hidden(G, 'fs', fs);
}
builtin({
  name: 'fs',
  install: installFS,
  off: 'modebox.json "fs": {"mounts": [...]} (EngineConfig.FS in the library)',
  namespace: true,
});
