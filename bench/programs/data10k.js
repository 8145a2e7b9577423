const regions = ["north", "south", "east", "west"];
const records = [];
for (let i = 0; i < 10000; i++) {
  records.push({ id: i, region: regions[i % 4], amount: (i * 37) % 1000 / 10, active: i % 3 !== 0, tags: ["t" + (i % 7)] });
}
const byRegion = {};
for (const r of records.filter((r) => r.active && r.amount > 5)) {
  const g = byRegion[r.region] || (byRegion[r.region] = { region: r.region, count: 0, total: 0, tags: new Set() });
  g.count++;
  g.total += r.amount;
  for (const t of r.tags) g.tags.add(t);
}
const rows = Object.values(byRegion)
  .map((g) => ({ region: g.region, count: g.count, total: Math.round(g.total * 100) / 100, tags: [...g.tags].sort().join(",") }))
  .sort((a, b) => b.total - a.total || a.region.localeCompare(b.region));
return { rows: rows.length, first: rows[0].region, count: rows.reduce((s, r) => s + r.count, 0), top: rows[0].total };
