// expect: ok ["Error", "ownKeys"]
// A tool argument that throws while encoded: the call rejects with the
// program's error, catchable, and no call goes out.
try {
  await tools.echo(new Proxy({}, { ownKeys() { throw new Error("ownKeys") } }));
} catch (e) {
  return [e.name, e.message];
}
