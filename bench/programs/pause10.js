let s = 0;
for (let i = 0; i < 10; i++) s += (await tools.fetchData({ id: i })).id;
return [s, await tools.approveMe({ s })];
