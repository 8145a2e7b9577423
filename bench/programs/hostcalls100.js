let sum = 0;
for (let i = 0; i < 100; i++) sum += await tools.add({ a: i, b: 1 });
return sum;
