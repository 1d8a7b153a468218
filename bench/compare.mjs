// Two builds side by side in one run, so a change's effect is a ratio measured under the same
// machine load rather than two numbers from two different moments.
//   node bench/compare.mjs BASE [HEAD] [--only load,cli,start,stdio] [--runs N]
// BASE and HEAD are git refs; `.` (HEAD's default) is this working tree as built. A ref is
// checked out into .bench/compare/<sha> (a detached git worktree sharing this node_modules)
// and built there once. Every measurement alternates between the two builds, run by run.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { awaitDaemonSocket, BENCH_DIR, corpus, MODERN_META, median, ROOT, table } from './lib.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args.splice(i, 2)[1];
};
const only = new Set(flag('--only', 'load,cli,start,stdio').split(','));
const RUNS = Number(flag('--runs', '7'));
const [baseRef, headRef = '.'] = args;
if (!baseRef) {
  console.error('usage: node bench/compare.mjs BASE [HEAD] [--only load,cli,start,stdio] [--runs N]');
  process.exit(2);
}

/** The root of a built tree for a ref: this tree for `.`, else a worktree built once. */
function treeFor(ref) {
  if (ref === '.') return { label: 'working tree', root: ROOT };
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dir = path.join(BENCH_DIR, 'compare', sha.slice(0, 12));
  if (!fs.existsSync(path.join(dir, 'dist/cli/main.js'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync('git', ['worktree', 'prune'], { cwd: ROOT });
    execFileSync('git', ['worktree', 'add', '--detach', dir, sha], { cwd: ROOT, stdio: 'ignore' });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return { label: `${ref} (${sha.slice(0, 9)})`, root: dir };
}

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

function coldLoad(tree, dir) {
  // A script file, not `node -e`: a build whose load worker inherits the parent's flags would
  // receive the `-e` script too and never report (fixed in parallel.ts, still true of older builds).
  const script = path.join(BENCH_DIR, `cold-load-${path.basename(tree.root)}.mjs`);
  fs.writeFileSync(
    script,
    `const { loadCorpus } = await import(${JSON.stringify(path.join(tree.root, 'dist/packs/decisions/corpus/corpus.js'))});
const t = performance.now(); loadCorpus({ workspaceRoot: process.argv[2], corpusDir: process.argv[2], watch: false });
const ms = performance.now() - t; globalThis.gc?.(); console.log(JSON.stringify({ ms, rss: process.memoryUsage().rss / 2 ** 20 }));
`,
  );
  const out = execFileSync(process.execPath, ['--expose-gc', script, dir], { encoding: 'utf8' });
  return JSON.parse(out);
}

/**
 * A state dir per build for one-shot commands: two builds sharing one would replace each other's
 * parse caches on every run (each is keyed by its build), and a daemon of the user's is never asked.
 */
const oneShotStates = new Map();
function oneShotState(tree) {
  let dir = oneShotStates.get(tree.root);
  if (dir === undefined) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-compare-cli-'));
    fs.chmodSync(dir, 0o700);
    oneShotStates.set(tree.root, dir);
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return dir;
}

function oneShot(tree, argv) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [path.join(tree.root, 'dist/cli/main.js'), ...argv], {
    stdio: 'ignore',
    env: { ...process.env, MOOR_STATE_DIR: oneShotState(tree) },
  });
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`${tree.label}: moor ${argv.join(' ')} exited ${r.status}`);
  return ms(t);
}

/** Spawn `moor stdio` with no daemon running and time its first tools/list answer. */
async function coldStart(tree, dir) {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-compare-'));
  fs.chmodSync(state, 0o700);
  const env = { ...process.env, MOOR_STATE_DIR: state };
  const t = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [path.join(tree.root, 'dist/cli/main.js'), 'stdio', '-w', dir, '-d', dir],
    {
      stdio: ['pipe', 'pipe', 'ignore'],
      env,
    },
  );
  const answered = new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (JSON.parse(line).id === 1) resolve(ms(t));
    });
  });
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } })}\n`,
  );
  const took = await answered;
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  awaitDaemonSocket(state);
  spawnSync(process.execPath, [path.join(tree.root, 'dist/cli/main.js'), 'daemon', 'stop'], {
    env,
    stdio: 'ignore',
  });
  fs.rmSync(state, { recursive: true, force: true });
  return took;
}

/** Median round trip of sequential get_decision calls through `moor stdio --direct`. */
async function stdioRoundTrip(tree, dir, refs) {
  const child = spawn(
    process.execPath,
    [path.join(tree.root, 'dist/cli/main.js'), 'stdio', '--direct', '-w', dir, '-d', dir],
    {
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  const waiting = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    waiting.get(msg.id)?.();
    waiting.delete(msg.id);
  });
  const call = (id, ref) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      const params = { name: 'get_decision', arguments: { ref: String(ref) }, _meta: MODERN_META };
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`);
    });
  const samples = [];
  for (let i = 1; i <= 1500; i++) {
    const t = process.hrtime.bigint();
    await call(i, refs[i % refs.length]);
    if (i > 300) samples.push(ms(t));
  }
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  return median(samples);
}

const base = treeFor(baseRef);
const head = treeFor(headRef);
const measures = [];
const add = (name, unit, fn) => measures.push({ name, unit, fn, samples: [[], []] });
if (only.has('load')) {
  const { dir } = corpus(10000);
  add('corpus cold load, 10k records', 'ms', (tree) => coldLoad(tree, dir).ms);
  add('corpus cold load, 10k records, RSS', 'MiB', (tree) => coldLoad(tree, dir).rss);
}
if (only.has('cli')) {
  const { dir } = corpus(100);
  for (const command of [['search', 'storage'], ['show', '1'], ['check']])
    add(`moor decisions ${command[0]}, 100 records`, 'ms', (tree) =>
      oneShot(tree, ['decisions', ...command, '-w', dir, '-d', dir]),
    );
}
if (only.has('start')) {
  const { dir } = corpus(1000);
  add('moor stdio, no daemon → first tools/list', 'ms', (tree) => coldStart(tree, dir));
}
if (only.has('stdio')) {
  const { dir, manifest } = corpus(1000);
  const refs = manifest.decisions.map((d) => d.number);
  add('stdio --direct get_decision round trip, p50', 'ms', (tree) => stdioRoundTrip(tree, dir, refs));
}

const load0 = os.loadavg()[0];
for (let run = 0; run < RUNS; run++) {
  for (const m of measures) {
    // Alternate which build goes first, so warm caches and drift favour neither.
    const order = run % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) m.samples[k].push(await m.fn(k === 0 ? base : head));
  }
}
table(
  `${head.label} against ${base.label} (medians of ${RUNS} alternating runs; load average ${load0.toFixed(2)} → ${os.loadavg()[0].toFixed(2)})`,
  ['measure', 'unit', 'base', 'head', 'head ÷ base'],
  measures.map((m) => {
    const [b, h] = m.samples.map(median);
    return [m.name, m.unit, b, h, `${(h / b).toFixed(2)}×`];
  }),
);
