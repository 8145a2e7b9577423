// Run with: modebox run --config examples/modebox.json examples/with-servers.ts
// Calls two downstream MCP servers as typed async functions.
const sum = await everything.get_sum({ a: 19, b: 23 });
await memory.create_entities({
  entities: [{ name: "modebox", entityType: "project", observations: ["runs code mode"] }],
});
const graph = await memory.read_graph();
return { sum, entities: graph.entities.map((e: { name: string }) => e.name) };
