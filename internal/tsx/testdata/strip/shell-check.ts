// Check the toolchain in the sandbox.
const cmds: ReadonlyArray<readonly [string, string]> = [
  ["go", "go version"],
  ["node", "node --version"],
  ["git", "git --version"],
];

const out: { [tool: string]: string | null } = {};
for (const [name, cmd] of cmds) {
  const r = await sh(cmd);
  out[name] = r.exitCode === 0 ? r.stdout.trim() : null;
}
const missing = Object.keys(out).filter((k) => out[k] === null);
if (missing.length > 0) console.warn("missing:", missing.join(", "));
return out;
