// Build a small knowledge graph through the memory server's tools.
interface Entity { name: string; entityType: string; observations: string[] }
interface Relation { from: string; to: string; relationType: string }

const people: Entity[] = [
  { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
  { name: "Charles", entityType: "person", observations: ["designed the engine"] },
];
const relations: Relation[] = [{ from: "Ada", to: "Charles", relationType: "worked_with" }];

await tools.memory.create_entities({ entities: people });
await tools.memory.create_relations({ relations });
const graph = await tools.memory.read_graph({});
const names = (graph.entities as Entity[]).map((e) => e.name);
return { names, relations: graph.relations.length as number };
