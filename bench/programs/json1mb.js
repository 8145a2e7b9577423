const items = [];
for (let i = 0; i < 9000; i++) items.push({ id: i, name: "item-" + i, tags: ["a", "b", "c"], score: i * 1.5, ok: i % 2 === 0, nested: { x: i, y: "yy" } });
const text = JSON.stringify(items);
const t0 = Date.now();
const back = JSON.parse(text);
const again = JSON.stringify(back);
return { bytes: text.length, same: again.length === text.length };
