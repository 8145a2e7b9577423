// expect: ok "late"
// Rejections handled only after other awaits.
const p = Promise.reject(new Error("x"));
const q = tools.fail();
await tools.slow({});
await p.catch(() => {});
await q.catch(() => {});
return "late";
