// Peer benchmark driver for the npm package `run` (vercel-labs/run, a
// QuickJS-in-Node-workers sandbox for code mode). Used by bench/peers.sh.
//
// The package is NOT a dependency of this repo: peers.sh installs it into a
// temporary directory and passes that directory here with --peer-dir.
//
// Usage:
//   node driver.mjs --peer-dir DIR --programs DIR [--cold K]
//   node driver.mjs --peer-dir DIR --programs DIR --cold-child   (internal)
//
// Output, one line per figure (times in ms):
//   figure NAME median_ms N RESULT_JSON
//   unsupported NAME REASON
// NAME is one of cold_start, warm_run, hostcalls100, fib27, json1mb.
//
// Every figure is a whole `runner.run()` call as a caller sees it (worker
// hand-off, fresh QuickJS context, source evaluation, result serialization),
// the same scope as modebox's Engine.Run in ./internal/engine benchmarks.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const peerDir = opt('--peer-dir');
const programsDir = opt('--programs');
if (!peerDir || !programsDir) {
  console.error('usage: driver.mjs --peer-dir DIR --programs DIR [--cold K]');
  process.exit(2);
}

const hostFunctions = {
  tools: {
    // Same tool as modebox's benchmark host: tools.add({a, b}) -> a + b.
    add: ({ a, b }) => a + b,
  },
};

const program = (name) => readFileSync(join(programsDir, `${name}.js`), 'utf8');

async function loadRun() {
  const req = createRequire(join(peerDir, 'package.json'));
  return import(pathToFileURL(req.resolve('run')).href);
}

function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function once(runner, source) {
  const r = await runner.run({ source, hostFunctions });
  if (r.status !== 'completed') {
    throw new Error(`run did not complete: ${JSON.stringify(r)}`);
  }
  return r.value;
}

// Cold start, measured inside a fresh Node process: from before the package
// is imported to the first completed run of empty.js (import, worker thread
// spawn, QuickJS wasm instantiation, first context, first result).
if (args.includes('--cold-child')) {
  const t0 = performance.now();
  const { createRunner } = await loadRun();
  const runner = createRunner({});
  const v = await once(runner, program('empty'));
  const t1 = performance.now();
  process.stdout.write(`${t1 - t0} ${JSON.stringify(v)}\n`);
  process.exit(0);
}

const out = (name, ms, n, value) =>
  console.log(`figure ${name} ${ms.toFixed(6)} ${n} ${JSON.stringify(value)}`);

// Cold start: K fresh processes.
const coldK = Number(opt('--cold', '5'));
{
  const self = fileURLToPath(import.meta.url);
  const times = [];
  let value;
  for (let i = 0; i < coldK; i++) {
    const c = spawnSync(
      process.execPath,
      [self, '--peer-dir', peerDir, '--programs', programsDir, '--cold-child'],
      { encoding: 'utf8' },
    );
    if (c.status !== 0) {
      console.error(c.stderr);
      throw new Error(`cold child failed with status ${c.status}`);
    }
    const [ms, v] = c.stdout.trim().split(' ');
    times.push(Number(ms));
    value = JSON.parse(v);
  }
  out('cold_start', median(times), coldK, value);
}

const { createRunner } = await loadRun();
const runner = createRunner({});

// Warm figures: warm-up runs, then up to `n` timed runs, stopping early
// once `budgetMs` is spent (at least 5 samples are always taken).
async function bench(name, file, n, budgetMs) {
  const source = program(file);
  let value;
  for (let i = 0; i < 3; i++) value = await once(runner, source);
  const times = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    value = await once(runner, source);
    times.push(performance.now() - t0);
    if (times.length >= 5 && performance.now() - start > budgetMs) break;
  }
  out(name, median(times), times.length, value);
}

await bench('warm_run', 'empty', 1000, 4000);
await bench('hostcalls100', 'hostcalls100', 300, 6000);
await bench('fib27', 'fib27', 30, 8000);
await bench('json1mb', 'json1mb', 15, 10000);
process.exit(0);
