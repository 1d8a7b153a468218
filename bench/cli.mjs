// Command-line start-up: `moor --version` and one-shot `moor decisions search`,
// `show`, `context`, `superseded` and `check` on generated 100- and 1k-record corpora, each against `node -e 0` measured
// in the same run (the floor any Node CLI pays). Goals: at most 1.5× the floor on 100 records, 2× on 1k.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { reportGoal } from './goals.mjs';
import { corpus as generated, median, percentile, ROOT, table } from './lib.mjs';

function timeOnce(args) {
  const t = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  // check exits 1 when it finds problems; anything else means the command itself failed.
  if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return ms;
}

const GOALS = { 100: ['cli-100', 1.5], 1000: ['cli-1k', 2] };

export async function benchCli() {
  for (const count of [100, 1000]) await benchCliOn(count);
}

async function benchCliOn(count) {
  const { dir } = generated(count);
  const moor = path.join(ROOT, 'dist/cli/main.js');
  const where = ['-w', dir, '-d', dir];
  const commands = [
    ['node -e 0', ['-e', '0']],
    ['moor --version', [moor, '--version']],
    ['moor decisions search', [moor, 'decisions', 'search', 'storage', ...where]],
    ['moor decisions show', [moor, 'decisions', 'show', '1', ...where]],
    ['moor decisions context', [moor, 'decisions', 'context', 'services/disputes/src/a.ts', ...where]],
    ['moor decisions superseded', [moor, 'decisions', 'superseded', ...where]],
    ['moor decisions check', [moor, 'decisions', 'check', ...where]],
  ];
  const [goalId, target] = GOALS[count];
  const runs = Math.max(10, Number(process.env.BENCH_RUNS_CLI ?? 15));
  const samples = new Map(commands.map(([name]) => [name, []]));
  for (const [, args] of commands) timeOnce(args); // warm the file cache
  // Interleaved, so drift on a shared machine hits every command alike.
  for (let r = 0; r < runs; r++) for (const [name, args] of commands) samples.get(name).push(timeOnce(args));
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
  table(
    `CLI start-up (${runs} runs each, ${count}-record corpus; ratio = median ÷ node -e 0, target ≤ ${target}×)`,
    ['command', 'median ms', 'p90 ms', 'ratio', `≤ ${target}×`],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCli();
