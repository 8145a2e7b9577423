// The sh built-in's part of the engine prelude. It is not a module: the
// engine image's build (internal/guest, builtins.js) places it, wrapped in a
// function, inside the prelude's closure, where the primordials the prelude
// captured before any program runs (hidden, call, PromiseCtor, pick, then,
// b64encode, ...) are in scope. It runs once, at engine init, into the
// snapshot; builtin(...) registers the global, which each run installs
// only when its configuration enables sh.
function installSh() {
  hidden(G, 'sh', function sh(command, options) {
    if (typeof command !== 'string') return PromiseCtor.reject(new TypeErrorCtor('sh(command): command must be a string'));
    let args;
    try {
      args = pick(options, ['cwd', 'timeout', 'env', 'stdin']);
      if (args.stdin !== undefined && typeof args.stdin !== 'string') args.stdinBase64 = b64encode(bytesOf(args.stdin, 'stdin')), delete args.stdin;
    } catch (e) { return PromiseCtor.reject(e); }
    args.command = command;
    return call('sh', args);
  });
}
builtin({
  name: 'sh',
  install: installSh,
  off: 'modebox.json "shell": {"enabled": true} (EngineConfig.Shell in the library)',
});
