// Pause → token → resume benchmark for the npm package `run` (vercel-labs/run),
// the counterpart of modebox's BenchmarkPauseResume2 / BenchmarkPauseResume10
// (root package). Used by bench/peers.sh.
//
// The package is NOT a dependency of this repo: peers.sh installs it into a
// temporary directory and passes that directory here with --peer-dir.
//
// Usage:
//   node pause.mjs --peer-dir DIR --programs DIR [--n N] [--budget-ms MS]
//
// Programs: pause2.js (two recorded calls with ~1 KB arguments, then a pause)
// and pause10.js (ten recorded calls, then a pause), both from --programs.
//
// Mechanism (documented in the package README, "Interrupt and resume"): a
// host function calls getHostFunctionContext().interrupt(payload); the run
// ends with {status: 'interrupted', interruptions, continuation}, where
// `continuation` is the token made by the runner's continuation codec. The
// codec here is the package's default: createRunner({continuationSecret}) →
// createSignedContinuationCodec (HMAC-SHA256 over the base64url canonical JSON
// of the replay state: source, ledger of every settled host call with its
// serialized arguments and result, determinism seed, scope hash). Resuming is
// runner.run({source, hostFunctions, continuation, resolutions}): the source is
// evaluated again from the top, recorded calls are answered from the ledger
// (their host functions are not invoked again, which this driver checks) and
// the interrupted function is reinvoked with getHostFunctionContext().resume.
//
// Output, one line per program (times in ms, sizes in bytes):
//   pause NAME N PAUSE_MS RESUME_MS CYCLE_MS TOKEN_BYTES STATE_JSON_BYTES RESULT_JSON
//   detail NAME key=value ...
//   unsupported NAME REASON
// PAUSE_MS   median of runner.run() from the call to the interrupted result
//            (token encoded and signed, as the caller gets it).
// RESUME_MS  median of runner.run({continuation, resolutions}) from the call to
//            the completed result (token verified and decoded, replay, finish).
// CYCLE_MS   median of pause + resume in the same iteration: the scope of
//            modebox's BenchmarkPauseResume* ns/op.
// TOKEN_BYTES      Buffer.byteLength of the continuation string, as the
//                  package serialises it (the bytes a caller must store).
// STATE_JSON_BYTES JSON.stringify of the decoded replay state, for reference.

import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const peerDir = opt('--peer-dir');
const programsDir = opt('--programs');
if (!peerDir || !programsDir) {
  console.error('usage: pause.mjs --peer-dir DIR --programs DIR [--n N] [--budget-ms MS]');
  process.exit(2);
}
const maxN = Number(opt('--n', '200'));
const budgetMs = Number(opt('--budget-ms', '6000'));

const PROGRAMS = [
  { name: 'pause2', want: true, fetches: 2 },
  { name: 'pause10', want: [45, true], fetches: 10 },
];

const req = createRequire(join(peerDir, 'package.json'));
const pkg = await import(pathToFileURL(req.resolve('run')).href);

const missing = [];
if (typeof pkg.createRunner !== 'function') missing.push('createRunner is not exported');
if (typeof pkg.getHostFunctionContext !== 'function') missing.push('getHostFunctionContext is not exported');
if (missing.length > 0) {
  for (const p of PROGRAMS) console.log(`unsupported ${p.name} ${missing.join('; ')}`);
  process.exit(0);
}
const { createRunner, getHostFunctionContext } = pkg;

// Counts host invocations, to check that a resume does not re-call the
// recorded tools (it must read them from the token's ledger).
const calls = { fetchData: 0, approveMe: 0 };
const hostFunctions = {
  tools: {
    // Same tools as modebox's benchmark engine.
    fetchData: ({ id }) => {
      calls.fetchData++;
      return { id, ok: true };
    },
    approveMe: () => {
      calls.approveMe++;
      const ctx = getHostFunctionContext();
      if (typeof ctx.interrupt !== 'function') {
        throw new Error('host function context has no interrupt()');
      }
      if (ctx.resume === undefined) ctx.interrupt({ kind: 'approval' });
      return ctx.resume.resolution === true;
    },
  },
};

const runner = createRunner({ continuationSecret: randomBytes(32) });

function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const tokenBytes = (tok) =>
  typeof tok === 'string' ? Buffer.byteLength(tok) : Buffer.byteLength(JSON.stringify(tok));

class Unsupported extends Error {}

async function cycle(p, source) {
  calls.fetchData = 0;
  calls.approveMe = 0;
  const t0 = performance.now();
  const first = await runner.run({ source, hostFunctions });
  const t1 = performance.now();
  if (first.status !== 'interrupted') {
    throw new Unsupported(
      `interrupt() inside a host function did not pause the run (status ${JSON.stringify(first.status)})`,
    );
  }
  if (first.continuation === undefined) {
    throw new Unsupported('an interrupted result carries no continuation token');
  }
  if (first.interruptions.length !== 1 || first.interruptions[0].hostFunctionName !== 'tools.approveMe') {
    throw new Error(`unexpected interruptions: ${JSON.stringify(first.interruptions)}`);
  }
  if (calls.fetchData !== p.fetches || calls.approveMe !== 1) {
    throw new Error(`pause made ${JSON.stringify(calls)} host calls, want ${p.fetches} fetchData + 1 approveMe`);
  }
  calls.fetchData = 0;
  calls.approveMe = 0;
  const t2 = performance.now();
  const second = await runner.run({
    source,
    hostFunctions,
    continuation: first.continuation,
    resolutions: [{ interruptionId: first.interruptions[0].id, value: true }],
  });
  const t3 = performance.now();
  if (second.status !== 'completed') {
    throw new Error(`resume did not complete: ${JSON.stringify(second)}`);
  }
  if (calls.fetchData !== 0 || calls.approveMe !== 1) {
    throw new Error(`resume made ${JSON.stringify(calls)} host calls, want 0 fetchData + 1 approveMe`);
  }
  if (JSON.stringify(second.value) !== JSON.stringify(p.want)) {
    throw new Error(`${p.name}.js returned ${JSON.stringify(second.value)}, want ${JSON.stringify(p.want)}`);
  }
  return { pause: t1 - t0, resume: t3 - t2, token: first.continuation, value: second.value };
}

// What the token is made of, decoded from the signed codec's format
// (base64url(canonical JSON envelope) "." base64url(HMAC)).
function breakdown(token) {
  if (typeof token !== 'string' || token.lastIndexOf('.') <= 0) return 'format=opaque';
  const dot = token.lastIndexOf('.');
  const body = Buffer.from(token.slice(0, dot), 'base64url').toString('utf8');
  const env = JSON.parse(body);
  const st = env.state;
  const led = st.ledger ?? [];
  const argBytes = led.reduce((n, e) => n + Buffer.byteLength(e.inputJson ?? ''), 0);
  const resBytes = led.reduce((n, e) => n + Buffer.byteLength(e.valueJson ?? e.payloadJson ?? ''), 0);
  return [
    `envelope_json_bytes=${Buffer.byteLength(body)}`,
    `base64url_body_bytes=${dot}`,
    `signature_bytes=${token.length - dot - 1}`,
    `source_bytes=${Buffer.byteLength(st.source ?? '')}`,
    `ledger_entries=${led.length}`,
    `ledger_json_bytes=${Buffer.byteLength(JSON.stringify(led))}`,
    `ledger_inputJson_bytes=${argBytes}`,
    `ledger_value_or_payload_json_bytes=${resBytes}`,
  ].join(' ');
}

for (const p of PROGRAMS) {
  const source = readFileSync(join(programsDir, `${p.name}.js`), 'utf8');
  let last;
  try {
    for (let i = 0; i < 3; i++) last = await cycle(p, source); // warm-up
  } catch (e) {
    if (e instanceof Unsupported) {
      console.log(`unsupported ${p.name} ${e.message}`);
      continue;
    }
    throw e;
  }
  const pauses = [];
  const resumes = [];
  const cycles = [];
  const sizes = new Set();
  const start = performance.now();
  for (let i = 0; i < maxN; i++) {
    last = await cycle(p, source);
    pauses.push(last.pause);
    resumes.push(last.resume);
    cycles.push(last.pause + last.resume);
    sizes.add(tokenBytes(last.token));
    if (pauses.length >= 5 && performance.now() - start > budgetMs) break;
  }
  if (sizes.size !== 1) {
    console.error(`pause.mjs: ${p.name}: token size varied: ${[...sizes].join(', ')}`);
  }
  const size = Math.max(...sizes);
  const stateBytes =
    typeof last.token === 'string' && last.token.lastIndexOf('.') > 0
      ? Buffer.byteLength(
          JSON.stringify(
            JSON.parse(Buffer.from(last.token.slice(0, last.token.lastIndexOf('.')), 'base64url').toString('utf8'))
              .state,
          ),
        )
      : size;
  console.log(
    `pause ${p.name} ${pauses.length} ${median(pauses).toFixed(6)} ${median(resumes).toFixed(6)} ` +
      `${median(cycles).toFixed(6)} ${size} ${stateBytes} ${JSON.stringify(last.value)}`,
  );
  console.log(`detail ${p.name} token_bytes=${size} ${breakdown(last.token)}`);
}
process.exit(0);
