// Command-line start-up: `moor --version` and one-shot `moor decisions search`,
// `show`, `context`, `superseded` and `check` on generated 100- and 1k-record corpora, each against `node -e 0` measured
// in the same run (the floor any Node CLI pays). Goals: at most 1.5× the floor on 100 records, 2× on 1k,
// with no daemon running (the command loads the corpus itself, from the state dir's caches) and with one
// (the command asks it). Both use one state dir of the bench's own, so a daemon of the user's is never asked.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportGoal } from './goals.mjs';
import { corpus as generated, median, percentile, ROOT, table } from './lib.mjs';

// What `moor` runs: package.json's bin, as an installed moor or npx would.
const MOOR = path.join(ROOT, JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin.moor);

function timeOnce(args, env) {
  const t = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  // check exits 1 when it finds problems; anything else means the command itself failed.
  if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return ms;
}

const GOALS = {
  100: { none: 'cli-100', daemon: 'cli-100-daemon', target: 1.5 },
  1000: { none: 'cli-1k', daemon: 'cli-1k-daemon', target: 2 },
};

export async function benchCli() {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-bench-cli-'));
  const env = { ...process.env, MOOR_STATE_DIR: state };
  try {
    for (const count of [100, 1000]) await benchCliOn(count, env, 'none');
    execFileSync(process.execPath, [MOOR, 'daemon', 'start'], { env, stdio: 'ignore' });
    for (const count of [100, 1000]) await benchCliOn(count, env, 'daemon');
  } finally {
    spawnSync(process.execPath, [MOOR, 'daemon', 'stop'], { env, stdio: 'ignore' });
    fs.rmSync(state, { recursive: true, force: true });
  }
}

async function benchCliOn(count, env, mode) {
  const { dir } = generated(count);
  const where = ['-w', dir, '-d', dir];
  const commands = [
    ['node -e 0', ['-e', '0']],
    ['moor --version', [MOOR, '--version']],
    ['moor decisions search', [MOOR, 'decisions', 'search', 'storage', ...where]],
    ['moor decisions show', [MOOR, 'decisions', 'show', '1', ...where]],
    ['moor decisions context', [MOOR, 'decisions', 'context', 'services/disputes/src/a.ts', ...where]],
    ['moor decisions superseded', [MOOR, 'decisions', 'superseded', ...where]],
    ['moor decisions check', [MOOR, 'decisions', 'check', ...where]],
  ];
  const { target, [mode]: goalId } = GOALS[count];
  const runs = Math.max(10, Number(process.env.BENCH_RUNS_CLI ?? 15));
  const samples = new Map(commands.map(([name]) => [name, []]));
  // Warm the file cache and the state dir's caches (or, with a daemon, its room for this corpus).
  for (const [, args] of commands) timeOnce(args, env);
  // Interleaved, so drift on a shared machine hits every command alike.
  for (let r = 0; r < runs; r++)
    for (const [name, args] of commands) samples.get(name).push(timeOnce(args, env));
  const floor = median(samples.get('node -e 0'));
  let worst = 0;
  const rows = commands.map(([name]) => {
    const s = samples.get(name);
    const ratio = median(s) / floor;
    if (name.startsWith('moor decisions')) worst = Math.max(worst, ratio);
    return [
      name,
      median(s),
      percentile(s, 90),
      `${ratio.toFixed(2)}×`,
      name === 'node -e 0' ? '' : ratio <= target ? 'yes' : 'no',
    ];
  });
  reportGoal(goalId, `${worst.toFixed(2)}×`, worst <= target);
  const how = mode === 'daemon' ? 'a daemon running (asked)' : 'no daemon (in-process, cached parses)';
  table(
    `CLI start-up, ${how} (${runs} runs each, ${count}-record corpus; ratio = median ÷ node -e 0, target ≤ ${target}×)`,
    ['command', 'median ms', 'p90 ms', 'ratio', `≤ ${target}×`],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCli();
