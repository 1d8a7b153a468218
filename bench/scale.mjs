// Beyond one machine, side by side in one run:
// - tasks created-and-completed per second and tasks/get p50, in process, on PostgreSQL beside
//   SQLite (bench/tasks.mjs's measurement);
// - HTTP tools/call req/s (modern era, get_decision) at concurrency 32: direct to one daemon,
//   through HAProxy to one daemon, through HAProxy to two daemons (round robin), all daemons on
//   one PostgreSQL store (scripts/cluster.mjs), the load from a child (bench/http.mjs's driver).
// On a 2-core machine the daemons, HAProxy, PostgreSQL and the driver share the cores: two
// daemons cannot double the throughput here; the table shows what the balancer costs and what
// a second daemon gives on this machine. PostgreSQL: $MOOR_STORE, $MOOR_TEST_PG_URL or the
// throwaway cluster of scripts/pg-cluster.sh. Usage: node bench/scale.mjs (needs `npm run build`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStores } from '../dist/store/open.js';
import { SqliteTaskStore } from '../dist/store/sqlite-task-store.js';
import { defaultStoreUrl, startClusterDaemon, startHaproxy } from '../scripts/cluster.mjs';
import { load, workload } from './http.mjs';
import { median, ROOT, table } from './lib.mjs';
import { measureTasks } from './tasks.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 32);
const TASKS = Number(process.env.TASKS_N ?? 3000);
const WORKSPACE = path.join(ROOT, 'test/fixtures/e2e/repo');

async function benchTaskStores(storeUrl) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-bench-scale-'));
  try {
    const sqlite = [];
    const postgres = [];
    for (let run = 0; run < RUNS; run++) {
      sqlite.push(
        await measureTasks(
          'sqlite',
          new SqliteTaskStore({ file: path.join(dir, `moor-${run}.db`) }),
          TASKS,
          5000,
        ),
      );
      const url = new URL(storeUrl);
      url.searchParams.delete('schema');
      const stores = await openStores({
        kind: 'postgres',
        connect: { url: url.toString(), schema: `bench_tasks_${process.pid}_${run}` },
      });
      const pool = stores.postgres.pool;
      postgres.push(await measureTasks('postgres', stores.tasks, TASKS, 5000));
      await pool.query(`DROP SCHEMA bench_tasks_${process.pid}_${run} CASCADE`);
      await stores.close();
    }
    const row = (label, results) => [
      label,
      median(results.map((r) => r.tasksPerSecond)),
      median(results.map((r) => r.getP50Ms)),
      median(results.map((r) => r.getP99Ms)),
      results.every((r) => r.completed === TASKS) ? 'yes' : 'NO',
    ];
    table(
      `Tasks created and completed, in process (${TASKS} tasks, medians of ${RUNS})`,
      ['store', 'tasks/s', 'tasks/get p50 ms', 'p99 ms', 'all completed'],
      [row('SQLite (state dir file)', sqlite), row('PostgreSQL (local server)', postgres)],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function benchHttpScale(storeUrl) {
  // The load driver sends no token: these daemons serve loopback only.
  const extra = ['-w', WORKSPACE, '--log-level', 'warn', '--no-token'];
  const daemons = [];
  const proxies = [];
  try {
    daemons.push(await startClusterDaemon({ store: storeUrl, extra }));
    daemons.push(await startClusterDaemon({ store: storeUrl, extra }));
    const one = await startHaproxy({ servers: [{ name: 'moor0', port: daemons[0].port }] });
    const two = await startHaproxy({
      servers: daemons.map((d, i) => ({ name: `moor${i}`, port: d.port })),
    });
    proxies.push(one, two);
    // Both servers of the two-daemon balancer healthy before measuring.
    for (let seen = new Set(); seen.size < 2; ) {
      const r = await fetch(`http://127.0.0.1:${two.port}/healthz`).catch(() => undefined);
      if (r?.ok) seen.add((await r.json()).incarnation.pid);
    }
    const spec = workload('modern', 'get_decision', { ref: '3' });
    const cells = [
      { label: 'direct to one daemon', port: daemons[0].port },
      { label: 'HAProxy → one daemon', port: one.port },
      { label: 'HAProxy → two daemons (round robin)', port: two.port },
    ];
    const results = new Map(cells.map((c) => [c.label, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const cell of cells) {
        // Warm-up, then the measured cell.
        await load(cell.port, spec, 0.5, CONCURRENCY, 100_000);
        results.get(cell.label).push(await load(cell.port, spec, SECONDS, CONCURRENCY, 2_000_000));
      }
    }
    const direct = median(results.get(cells[0].label).map((r) => r.rps));
    table(
      `HTTP tools/call get_decision, modern era, concurrency ${CONCURRENCY} (medians of ${RUNS} × ${SECONDS} s; ${os.cpus().length} cores shared by everything)`,
      ['path', 'req/s', 'p50 ms', 'p99 ms', 'vs direct', 'non-2xx+err'],
      cells.map((cell) => {
        const rs = results.get(cell.label);
        const rps = median(rs.map((r) => r.rps));
        return [
          cell.label,
          rps,
          median(rs.map((r) => r.p50)),
          median(rs.map((r) => r.p99)),
          `${(rps / direct).toFixed(2)}×`,
          rs.reduce((n, r) => n + r.non2xx + r.errors, 0),
        ];
      }),
    );
  } finally {
    for (const p of proxies) p.child.kill('SIGTERM');
    for (const d of daemons) d.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const p of proxies) fs.rmSync(p.dir, { recursive: true, force: true });
    for (const d of daemons) fs.rmSync(d.stateDir, { recursive: true, force: true });
  }
}

/**
 * The scale-out rows need a PostgreSQL server and HAProxy; on a machine without them `npm run
 * bench` says which rows it left out and why, and goes on with the others.
 */
export async function benchScale() {
  let storeUrl;
  try {
    storeUrl = defaultStoreUrl();
  } catch (error) {
    console.log(
      `\n(scale rows skipped: no PostgreSQL to run them on (${String(error.message ?? error).split('\n')[0]}); set MOOR_TEST_PG_URL or apt-get install postgresql)`,
    );
    return;
  }
  await benchTaskStores(storeUrl);
  const haproxy = process.env.HAPROXY ?? '/usr/sbin/haproxy';
  if (!fs.existsSync(haproxy)) {
    console.log(`\n(HTTP through HAProxy skipped: no ${haproxy}; apt-get install haproxy, or set HAPROXY)`);
    return;
  }
  await benchHttpScale(storeUrl);
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) await benchScale();
