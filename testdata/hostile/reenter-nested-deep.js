// expect: ok 40
// Getters calling tools whose arguments have getters calling tools, 40
// levels deep, all while encoding.
const ps = [];
function arg(n) {
  return { get n() { if (n > 0) ps.push(tools.echo(arg(n - 1))); return n } };
}
ps.push(tools.echo(arg(39)));
const rs = await Promise.all(ps);
return rs.length;
