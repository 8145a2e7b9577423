// expect: ok 1000
// A thousand rejected promises in flight, in various orders.
let n = 0;
for (let i = 0; i < 1000; i++) {
  const p = i % 2 ? Promise.reject(i) : new Promise((_, r) => queueMicrotask(() => r(i)));
  if (i % 3 === 0) p.catch(() => {});
  n++;
}
return n;
