const a = await tools.fetchData({ id: 1, pad: "x".repeat(1024) });
const b = await tools.fetchData({ id: 2, pad: "y".repeat(1024) });
const ok = await tools.approveMe({ a: a.id, b: b.id });
return ok;
