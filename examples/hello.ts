// A modebox program is the body of an async function: `return` gives the
// result and top-level `await` works. TypeScript is accepted.
interface Item {
  name: string;
  price: number;
}

const items: Item[] = [
  { name: "apple", price: 1.25 },
  { name: "pear", price: 0.8 },
  { name: "fig", price: 2.5 },
];

const total = items.reduce((sum, i) => sum + i.price, 0);
console.log(`pricing ${items.length} items`);
await new Promise((resolve) => setTimeout(resolve, 10));
return { total: total.toFixed(2), cheapest: items.toSorted((a, b) => a.price - b.price)[0].name };
