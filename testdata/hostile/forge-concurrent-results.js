// expect: ok true
// 60 calls in flight at once while the program tampers with everything it
// can between them: each call gets its own result, none another's.
const ps = [];
for (let i = 0; i < 60; i++) {
  ps.push(tools.slow({ i }));
  if (i === 30) { Object.prototype.resolve = () => {}; Array.prototype.i = 5; }
}
const rs = await Promise.all(ps);
return rs.every((r, i) => r.i === i);
