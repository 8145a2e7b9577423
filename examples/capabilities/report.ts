// Counts the words of every note under /data, writes a report to /out
// (staged, committed when the run ends well), and asks the sandboxed shell
// what it can see. Run: go run ./cmd/modebox run --config examples/capabilities/modebox.json examples/capabilities/report.ts
const files: string[] = await fs.glob("/data/**/*.md");
const words: Record<string, number> = {};
for (const f of files) {
  words[f] = (await fs.read(f)).split(/\s+/).filter(Boolean).length;
}
await fs.write("/out/report.json", JSON.stringify(words, null, 2) + "\n");
const hidden = await fs.exists("/data/.env"); // secrets are absent: false
const uname = await sh("uname -s; cat /etc/shadow 2>&1 | head -1");
return { words, hidden, shell: uname.stdout.trim().split("\n") };
