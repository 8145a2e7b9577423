type Msg = { role: "system" | "user" | "assistant"; content: string };

const estimate = (s: string): number => Math.ceil(s.length / 4);

function trimToBudget(msgs: Msg[], budget: number): Msg[] {
  const system = msgs.filter((m) => m.role === "system");
  const rest = msgs.filter((m) => m.role !== "system");
  let used = system.reduce((n, m) => n + estimate(m.content), 0);
  const kept: Msg[] = [];
  for (let i = rest.length - 1; i >= 0; i--) {
    const cost = estimate(rest[i]!.content);
    if (used + cost > budget) break;
    used += cost;
    kept.unshift(rest[i]!);
  }
  return [...system, ...kept];
}

const history: Msg[] = [
  { role: "system", content: "You are terse." },
  ...Array.from({ length: 20 }, (_, i): Msg => ({ role: i % 2 ? "assistant" : "user", content: "x".repeat(40 * (i + 1)) })),
];
const trimmed = trimToBudget(history, 1000);
return { kept: trimmed.length, tokens: trimmed.map((m) => estimate(m.content)).reduce((a, b) => a + b, 0) };
