// stdio round trip through the real process: a line-delimited client sends one
// request at a time and times write → parsed response.
import path from 'node:path';
import { corpus as generated, LineClient, median, percentile, ROOT, table } from './lib.mjs';

async function roundTrips(args, method, params, n) {
  const client = new LineClient(args);
  for (let i = 0; i < 200; i++) await client.request(method, params(i)); // warm-up
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    const answer = await client.request(method, params(i));
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (answer.error) throw new Error(JSON.stringify(answer.error));
  }
  await client.close();
  return samples;
}

export async function benchStdio() {
  const { dir, manifest } = generated(1000);
  const moor = [
    path.join(ROOT, 'dist/cli/main.js'),
    'stdio',
    '--direct',
    '--workspace',
    dir,
    '--decisions',
    dir,
  ];
  const echo = [path.join(ROOT, 'bench/servers/sdk-echo.mjs')];
  const refs = manifest.decisions.map((d) => d.number);
  const rows = [];
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const collect = { moor: [], echo: [] };
  for (let r = 0; r < runs; r++) {
    collect.echo.push(
      await roundTrips(echo, 'tools/call', () => ({ name: 'echo', arguments: { text: 'hi' } }), 2000),
    );
    collect.moor.push(
      await roundTrips(
        moor,
        'tools/call',
        (i) => ({ name: 'get_decision', arguments: { ref: refs[i % refs.length] } }),
        2000,
      ),
    );
  }
  const summarize = (sets) => [
    median(sets.map((s) => median(s))),
    median(sets.map((s) => percentile(s, 99))),
  ];
  const [echoP50, echoP99] = summarize(collect.echo);
  const [moorP50, moorP99] = summarize(collect.moor);
  rows.push(['plain SDK serveStdio echo (anchor)', echoP50, echoP99, '1.00×']);
  rows.push([
    'moor stdio --direct, get_decision (1k corpus)',
    moorP50,
    moorP99,
    `${(moorP50 / echoP50).toFixed(2)}×`,
  ]);
  table(
    `stdio round trip, modern era, sequential (ms, median of ${runs} runs × 2000 calls)`,
    ['server', 'p50', 'p99', 'vs anchor'],
    rows,
  );
}
