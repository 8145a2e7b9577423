interface Node<T = string> {
  value: T;
  children?: Node<T>[];
}

const tree: Node = {
  value: "root",
  children: [
    { value: "a", children: [{ value: "a1" }, { value: "a2" }] },
    { value: "b" },
  ],
};

function depth<T>(n: Node<T>): number {
  return 1 + Math.max(0, ...(n.children ?? []).map((c) => depth(c)));
}

function* walk<T>(n: Node<T>, path: T[] = []): Generator<T[]> {
  const here = [...path, n.value];
  yield here;
  for (const c of n.children ?? []) yield* walk(c, here);
}

const paths = [...walk(tree)].map((p) => p.join("/"));
return { depth: depth(tree), paths };
