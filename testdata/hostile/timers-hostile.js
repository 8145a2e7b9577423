// expect: ok ["TypeError", 3]
// Timers with bad callbacks, an interval never cleared, a huge delay.
let kind;
try { setTimeout("code string", 1) } catch (e) { kind = e.name }
setInterval(() => {}, 1);
setTimeout(() => {}, 1e12);
return [kind, await tools.add({ a: 1, b: 2 })];
