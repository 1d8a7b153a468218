// The proxy hop and the daemon: round trip through `moor stdio` + daemon vs
// `moor stdio --direct`, spawn → first tools/list answer (daemon running, no
// daemon, a plain SDK serveStdio server, bare node), and the daemon's memory
// and CPU per request. Medians of several runs; prints, never asserts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportGoal } from './goals.mjs';
import {
  awaitDaemonSocket,
  corpus as generated,
  LineClient,
  median,
  percentile,
  ROOT,
  table,
} from './lib.mjs';

const MOOR = path.join(ROOT, 'dist/cli/main.js');
const ECHO = path.join(ROOT, 'bench/servers/sdk-echo.mjs');

const runs = Number(process.env.BENCH_RUNS ?? 3);

function freshState() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'moor-bench-'));
}

function cli(stateDir, args) {
  return execFileSync(process.execPath, [MOOR, ...args], {
    env: { ...process.env, MOOR_STATE_DIR: stateDir },
    encoding: 'utf8',
  });
}

function daemonPid(stateDir) {
  return JSON.parse(fs.readFileSync(path.join(stateDir, 'incarnation.json'), 'utf8')).pid;
}

function stopDaemon(stateDir) {
  awaitDaemonSocket(stateDir);
  try {
    cli(stateDir, ['daemon', 'stop']);
  } catch {
    try {
      process.kill(daemonPid(stateDir), 'SIGKILL');
    } catch {}
  }
  fs.rmSync(stateDir, { recursive: true, force: true });
}

/** utime + stime of a process, in µs. */
function cpuMicros(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100; // CLK_TCK is 100 on Linux
}

function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

async function roundTrips(client, refs, n) {
  for (let i = 0; i < 200; i++)
    await client.request('tools/call', { name: 'get_decision', arguments: { ref: refs[i % refs.length] } });
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    const answer = await client.request('tools/call', {
      name: 'get_decision',
      arguments: { ref: refs[i % refs.length] },
    });
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (answer.error) throw new Error(JSON.stringify(answer.error));
  }
  return samples;
}

async function timeToFirstList(args, env) {
  const t = process.hrtime.bigint();
  const client = new LineClient(args, env);
  const answer = await client.request('tools/list');
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (answer.error) throw new Error(JSON.stringify(answer.error));
  await client.close();
  return ms;
}

function timeNodeNoop() {
  const t = process.hrtime.bigint();
  execFileSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

export async function benchProxy() {
  const { dir, manifest } = generated(1000);
  const refs = manifest.decisions.map((d) => d.number);
  const stdioArgs = ['stdio', '--workspace', dir, '--decisions', dir];

  // 1. Round trip: proxy + daemon vs direct.
  const state = freshState();
  cli(state, ['daemon', 'start']);
  const env = { MOOR_STATE_DIR: state };
  const rt = { proxy: [], direct: [] };
  for (let r = 0; r < runs; r++) {
    const direct = new LineClient([MOOR, ...stdioArgs, '--direct']);
    rt.direct.push(await roundTrips(direct, refs, 2000));
    await direct.close();
    const proxy = new LineClient([MOOR, ...stdioArgs], env);
    rt.proxy.push(await roundTrips(proxy, refs, 2000));
    await proxy.close();
  }
  const p50 = (sets) => median(sets.map((s) => median(s)));
  const p99 = (sets) => median(sets.map((s) => percentile(s, 99)));
  const [dP50, pP50] = [p50(rt.direct), p50(rt.proxy)];
  table(
    `tools/call get_decision, modern, sequential (ms, median of ${runs} runs × 2000 calls; 1k corpus)`,
    ['path', 'p50', 'p99', 'added at p50'],
    [
      ['moor stdio --direct', dP50, p99(rt.direct), '-'],
      ['moor stdio → daemon', pP50, p99(rt.proxy), `${(pP50 - dP50).toFixed(3)} ms (target ≤ 0.15)`],
    ],
  );

  // 2. Spawn → first tools/list answer.
  const spawnRuns = Math.max(5, runs);
  const warm = [];
  const echo = [];
  const noop = [];
  const cold = [];
  for (let r = 0; r < spawnRuns; r++) {
    warm.push(await timeToFirstList([MOOR, ...stdioArgs], env));
    echo.push(await timeToFirstList([ECHO]));
    noop.push(timeNodeNoop());
    const fresh = freshState();
    try {
      cold.push(await timeToFirstList([MOOR, ...stdioArgs], { MOOR_STATE_DIR: fresh }));
    } finally {
      stopDaemon(fresh);
    }
  }
  const echoMs = median(echo);
  const coldMs = median(cold);
  reportGoal('cold-start', `${coldMs.toFixed(0)} ms`, coldMs <= 400);
  reportGoal('cold-start-ratio', `${(coldMs / median(noop)).toFixed(2)}×`, coldMs / median(noop) <= 2.5);
  table(
    `spawn → first tools/list answer (ms, median of ${spawnRuns})`,
    ['process', 'ms', 'vs SDK serveStdio'],
    [
      ['node -e 0 (exit)', median(noop), `${(median(noop) / echoMs).toFixed(2)}×`],
      ['plain SDK serveStdio (sdk-echo)', echoMs, '1.00×'],
      ['moor stdio, daemon running', median(warm), `${(median(warm) / echoMs).toFixed(2)}× (target ≤ 0.6×)`],
      [
        'moor stdio, no daemon (starts it)',
        median(cold),
        `${(median(cold) / echoMs).toFixed(2)}×; ${(median(cold) / median(noop)).toFixed(2)}× node -e 0 (goal ≤ 400 ms, ≤ 2.5×)`,
      ],
    ],
  );

  // 3. Daemon memory and CPU per request.
  const pid = daemonPid(state);
  const client = new LineClient([MOOR, ...stdioArgs], env);
  // Idle: warmed up (room loaded, every decision read once so the corpus's lazily loaded bodies are in,
  // code compiled), then quiet long enough for the daemon's idle collection.
  for (let i = 0; i < 2 * refs.length; i++)
    await client.request('tools/call', { name: 'get_decision', arguments: { ref: refs[i % refs.length] } });
  await new Promise((r) => setTimeout(r, 2000));
  const idle = rssKiB(pid);
  const cpu0 = cpuMicros(pid);
  const proxyCpu0 = cpuMicros(client.child.pid);
  const n = 10_000;
  const pipeline = 16;
  let next = 0;
  await Promise.all(
    Array.from({ length: pipeline }, async () => {
      while (next < n) {
        const i = next++;
        await client.request('tools/call', {
          name: 'get_decision',
          arguments: { ref: refs[i % refs.length] },
        });
      }
    }),
  );
  const cpu = (cpuMicros(pid) - cpu0) / n;
  const proxyCpu = (cpuMicros(client.child.pid) - proxyCpu0) / n;
  await new Promise((r) => setTimeout(r, 2000));
  const after = rssKiB(pid);
  await client.close();

  const direct = new LineClient([MOOR, ...stdioArgs, '--direct']);
  for (let i = 0; i < 500; i++)
    await direct.request('tools/call', { name: 'get_decision', arguments: { ref: refs[i % refs.length] } });
  const dcpu0 = cpuMicros(direct.child.pid);
  next = 0;
  await Promise.all(
    Array.from({ length: pipeline }, async () => {
      while (next < n) {
        const i = next++;
        await direct.request('tools/call', {
          name: 'get_decision',
          arguments: { ref: refs[i % refs.length] },
        });
      }
    }),
  );
  const dcpu = (cpuMicros(direct.child.pid) - dcpu0) / n;
  await direct.close();
  stopDaemon(state);

  table(
    'daemon memory and CPU (get_decision, 10,000 requests, 16 in flight)',
    ['measure', 'value'],
    [
      ['daemon RSS idle (MiB)', idle / 1024],
      ['daemon RSS after 10,000 requests (MiB)', after / 1024],
      ['growth', `${(((after - idle) / idle) * 100).toFixed(1)}% (target < 10%)`],
      ['daemon CPU per request (µs)', cpu],
      ['proxy CPU per request (µs)', proxyCpu],
      ['moor stdio --direct CPU per request (µs)', dcpu],
    ],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchProxy();
