#!/usr/bin/env node
// Captures the tools/list results of the MCP reference servers so that the
// TypeScript declaration renderer (internal/tsdecl) can be tested against
// schemas real servers send.
//
// Usage (from the repository root):
//
//   node scripts/capture-mcp-schemas.mjs [server ...]
//
// Each server is started with `npx -y <package>` over stdio, sent
// initialize, notifications/initialized and tools/list (following
// nextCursor), and its result is written to
// testdata/mcp-schemas/<server>.json as
//
//   {"server": {"package": ..., "name": ..., "version": ...}, "tools": [...]}
//
// No dependencies beyond Node itself and the servers. The exit status is 1
// when any server could not be captured; the others are still written.

import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "testdata", "mcp-schemas");
const timeoutMs = Number(process.env.CAPTURE_TIMEOUT_MS || 180000);

// Each entry: short name -> how to start it. args(tmp) gets a scratch dir.
const servers = {
  everything: {
    pkg: "@modelcontextprotocol/server-everything",
    args: () => ["stdio"],
  },
  filesystem: {
    pkg: "@modelcontextprotocol/server-filesystem",
    args: (tmp) => [tmp],
  },
  memory: {
    pkg: "@modelcontextprotocol/server-memory",
    args: () => [],
    env: (tmp) => ({ MEMORY_FILE_PATH: join(tmp, "memory.jsonl") }),
  },
  // Lists its tools without a token and without the network; it is only
  // asked for tools/list here.
  github: {
    pkg: "@modelcontextprotocol/server-github",
    args: () => [],
    env: () => ({ GITHUB_PERSONAL_ACCESS_TOKEN: "" }),
  },
};

// capture starts one server and returns {serverInfo, tools}.
function capture(short, spec) {
  const tmp = mkdtempSync(join(tmpdir(), `mcp-${short}-`));
  const env = { ...process.env, ...(spec.env ? spec.env(tmp) : {}) };
  const child = spawn("npx", ["-y", spec.pkg, ...spec.args(tmp)], {
    cwd: tmp,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
    if (stderr.length > 20000) stderr = stderr.slice(-20000);
  });

  const pending = new Map();
  let nextId = 1;
  let buf = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue; // not JSON-RPC (a stray log line)
      }
      if (msg.id !== undefined && pending.has(msg.id) && !msg.method) {
        const { resolve, reject } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(`${msg.error.code}: ${msg.error.message}`));
        else resolve(msg.result);
      } else if (msg.id !== undefined && msg.method) {
        // A request from the server (e.g. roots/list): answer "not supported".
        send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "not supported" } });
      }
    }
  });

  function send(obj) {
    child.stdin.write(JSON.stringify(obj) + "\n");
  }
  function request(method, params) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      send({ jsonrpc: "2.0", id, method, params });
    });
  }

  const exited = new Promise((_, reject) => {
    child.on("error", (e) => reject(e));
    child.on("exit", (code, sig) =>
      reject(new Error(`exited (${code ?? sig}) before answering; stderr:\n${stderr}`)),
    );
  });
  let timer;
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out; stderr:\n${stderr}`)), timeoutMs);
  });

  const session = (async () => {
    const init = await request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "modebox-capture", version: "0" },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const tools = [];
    let cursor;
    for (let page = 0; page < 100; page++) {
      const res = await request("tools/list", cursor ? { cursor } : {});
      tools.push(...(res.tools || []));
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return { serverInfo: init.serverInfo || {}, tools };
  })();

  return Promise.race([session, exited, timedOut]).finally(() => {
    clearTimeout(timer);
    child.stdin.end();
    child.kill("SIGTERM");
    rmSync(tmp, { recursive: true, force: true });
  });
}

async function main() {
  const wanted = process.argv.slice(2);
  const names = wanted.length ? wanted : Object.keys(servers);
  mkdirSync(outDir, { recursive: true });
  let failed = 0;
  for (const short of names) {
    const spec = servers[short];
    if (!spec) {
      console.error(`unknown server ${short}; known: ${Object.keys(servers).join(", ")}`);
      failed++;
      continue;
    }
    try {
      const { serverInfo, tools } = await capture(short, spec);
      const out = {
        server: { package: spec.pkg, name: serverInfo.name, version: serverInfo.version },
        tools,
      };
      const file = join(outDir, `${short}.json`);
      writeFileSync(file, JSON.stringify(out, null, 2) + "\n");
      console.log(`${short}: ${tools.length} tools (${serverInfo.name} ${serverInfo.version}) -> ${file}`);
    } catch (e) {
      console.error(`${short}: could not capture: ${e.message}`);
      failed++;
    }
  }
  // The servers' children may linger briefly; do not wait for them.
  process.exit(failed ? 1 : 0);
}

main();
