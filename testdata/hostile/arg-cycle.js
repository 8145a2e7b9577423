// expect: ok "TypeError"
const a = {};
a.a = a;
try { await tools.echo(a) } catch (e) { return e.name }
