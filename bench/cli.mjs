// Command-line start-up: `moor --version` and one-shot `moor decisions search`,
// `show`, `context`, `superseded` and `check` on a generated 100-record corpus, each against `node -e 0` measured
// in the same run (the floor any Node CLI pays). Target: at most 1.5× the floor.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { corpus as generated, median, percentile, ROOT, table } from './lib.mjs';

const TARGET = 1.5;

function timeOnce(args) {
  const t = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  // check exits 1 when it finds problems; anything else means the command itself failed.
  if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(' ')}: ${result.stderr}`);
  return ms;
}

export async function benchCli() {
  const { dir } = generated(100);
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
  const runs = Math.max(10, Number(process.env.BENCH_RUNS_CLI ?? 15));
  const samples = new Map(commands.map(([name]) => [name, []]));
  for (const [, args] of commands) timeOnce(args); // warm the file cache
  // Interleaved, so drift on a shared machine hits every command alike.
  for (let r = 0; r < runs; r++) for (const [name, args] of commands) samples.get(name).push(timeOnce(args));
  const floor = median(samples.get('node -e 0'));
  const rows = commands.map(([name]) => {
    const s = samples.get(name);
    const ratio = median(s) / floor;
    return [
      name,
      median(s),
      percentile(s, 90),
      `${ratio.toFixed(2)}×`,
      name === 'node -e 0' ? '' : ratio <= TARGET ? 'yes' : 'no',
    ];
  });
  table(
    `CLI start-up (${runs} runs each, 100-record corpus; ratio = median ÷ node -e 0, target ≤ ${TARGET}×)`,
    ['command', 'median ms', 'p90 ms', 'ratio', `≤ ${TARGET}×`],
    rows,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCli();
