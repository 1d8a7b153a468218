// HTTP throughput at concurrency 32 (the HTTP endpoint's throughput), side by side in one run:
// - raw: node:http answering a fixed JSON-RPC result (the ceiling),
// - sdk: a plain SDK createMcpHandler server that builds an McpServer and registers its tool
//   on every request (what an SDK user writes),
// - moor: the daemon's endpoint (src/http), lean path on, metrics on and (same run, rows side by
//   side) off, and for reference with the lean path off.
// Every server runs in its own child process on 127.0.0.1; the load comes from another child
// (this file run with --load): N keep-alive connections (node:http Agent), each with one
// request in flight, for a fixed time and at most a fixed count. CPU µs per request is the
// server's utime+stime from /proc/<pid>/stat over the cell, divided by the requests answered.
// Medians of BENCH_RUNS (3) repetitions, server order rotated per repetition.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportGoal } from './goals.mjs';
import { median, percentile, ROOT, table } from './lib.mjs';

const SELF = fileURLToPath(import.meta.url);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 32);
const MAX_REQUESTS = 2_000_000;

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const COMMON = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The exact requests: a modern (2026-07-28) and a legacy (2025, stateless) tools/call. */
export function workload(era, tool, args) {
  if (era === 'modern') {
    return {
      headers: {
        ...COMMON,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': tool,
      },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: tool, arguments: args, _meta: ENVELOPE },
      },
    };
  }
  return {
    headers: { ...COMMON, 'mcp-protocol-version': '2025-11-25' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } },
  };
}

const ECHO = { tool: 'echo', args: { text: 'hello' }, expect: (text) => text === 'hello' };
const GET_DECISION = { tool: 'get_decision', args: { ref: '3' }, expect: (text) => text.includes('0003') };

const SERVERS = [
  { name: 'raw', label: 'raw node:http, fixed result (ceiling)', args: ['bench/servers/http-raw.mjs'] },
  {
    name: 'sdk',
    label: 'plain SDK createMcpHandler, McpServer per request',
    args: ['bench/servers/http-sdk.mjs'],
  },
  { name: 'moor', label: 'moor endpoint (metrics on)', args: ['bench/servers/http-moor.mjs'] },
  {
    name: 'moor-nometrics',
    label: 'moor endpoint, metrics off',
    args: ['bench/servers/http-moor.mjs', '--no-metrics'],
  },
  {
    name: 'moor-sdk',
    label: 'moor endpoint, lean path off',
    args: ['bench/servers/http-moor.mjs', '--no-lean'],
  },
];

const CELLS = [
  { server: 'raw', era: 'modern', ...ECHO },
  { server: 'raw', era: 'legacy', ...ECHO },
  { server: 'sdk', era: 'modern', ...ECHO },
  { server: 'sdk', era: 'legacy', ...ECHO },
  { server: 'moor', era: 'modern', ...ECHO },
  { server: 'moor', era: 'legacy', ...ECHO },
  { server: 'moor-nometrics', era: 'modern', ...ECHO },
  { server: 'moor-nometrics', era: 'legacy', ...ECHO },
  { server: 'moor', era: 'modern', ...GET_DECISION },
  { server: 'moor-nometrics', era: 'modern', ...GET_DECISION },
  { server: 'moor', era: 'legacy', ...GET_DECISION },
  { server: 'moor-sdk', era: 'modern', ...ECHO },
  { server: 'moor-sdk', era: 'legacy', ...ECHO },
];

// ---------------------------------------------------------------------------------------------
// The load child: `node bench/http.mjs --load PORT SECONDS CONCURRENCY MAX` with the request as
// JSON on stdin; prints one JSON line.

async function runLoad() {
  const [port, seconds, concurrency, max] = process.argv.slice(3).map(Number);
  const spec = JSON.parse(readFileSync(0, 'utf8'));
  const payload = Buffer.from(JSON.stringify(spec.body));
  const headers = { ...spec.headers, 'content-length': String(payload.length), connection: 'keep-alive' };
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = new Float64Array(Math.min(max, 4_000_000));
  let done = 0;
  let started = 0;
  let non2xx = 0;
  let errors = 0;
  const once = () =>
    new Promise((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.request(
        { agent, host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers },
        (res) => {
          res.on('data', () => {});
          res.on('end', () => {
            if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
            if (done < latencies.length) latencies[done] = Number(process.hrtime.bigint() - t0) / 1e6;
            done++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(payload);
    });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && started < max) {
      started++;
      await once();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const driverCpuUs = (cpu.user + cpu.system) / Math.max(1, done);
  const sample = Array.from(latencies.subarray(0, Math.min(done, latencies.length)));
  agent.destroy();
  process.stdout.write(
    `${JSON.stringify({ requests: done, seconds: elapsed, rps: done / elapsed, p50: percentile(sample, 50), p99: percentile(sample, 99), non2xx, errors, driverCpuUs })}\n`,
  );
}

// ---------------------------------------------------------------------------------------------
// The coordinator.

const CLK_TCK = 100; // Linux USER_HZ
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK; // utime, stime
}

const children = new Set();
function stopAll() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.once('exit', stopAll);

function startServer(server) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, server.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    const timer = setTimeout(() => reject(new Error(`${server.name} did not start within 15 s`)), 15_000);
    child.stdout.setEncoding('utf8');
    let seen = '';
    child.stdout.on('data', (data) => {
      seen += data;
      const match = seen.match(/LISTEN (\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ ...server, child, port: Number(match[1]) });
      }
    });
    child.once('exit', (code) => reject(new Error(`${server.name} exited with ${code}`)));
  });
}

export function load(port, spec, seconds, concurrency, max) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SELF, '--load', port, seconds, concurrency, max].map(String), {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.add(child);
    const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 20) * 1000);
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => {
      clearTimeout(killer);
      children.delete(child);
      if (code !== 0) reject(new Error(`load driver exited with ${code}`));
      else resolve(JSON.parse(out));
    });
    child.stdin.end(JSON.stringify(spec));
  });
}

/** One request, checked: HTTP 200 and the expected tool result (JSON or SSE-framed). */
async function verify(port, cell) {
  const spec = workload(cell.era, cell.tool, cell.args);
  const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
    method: 'POST',
    headers: spec.headers,
    body: JSON.stringify(spec.body),
  });
  const text = await response.text();
  const json = text
    .split('\n')
    .map((line) => line.replace(/^data: /, ''))
    .find((line) => line.startsWith('{'));
  const message = JSON.parse(json ?? 'null');
  const answer = message?.result?.content?.[0]?.text;
  if (
    response.status !== 200 ||
    message?.id !== 1 ||
    typeof answer !== 'string' ||
    !cell.expect(answer) ||
    message.result.isError
  ) {
    throw new Error(
      `${cell.server} ${cell.era} ${cell.tool}: unexpected answer HTTP ${response.status} ${text.slice(0, 300)}`,
    );
  }
}

const cellName = (cell) => `${cell.server}/${cell.era}/${cell.tool}`;

export async function benchHttp() {
  const load1 = os.loadavg()[0];
  const running = new Map();
  try {
    for (const server of SERVERS) running.set(server.name, await startServer(server));
    for (const cell of CELLS) await verify(running.get(cell.server).port, cell);
    for (const cell of CELLS) {
      const spec = workload(cell.era, cell.tool, cell.args);
      await load(running.get(cell.server).port, spec, 1, CONCURRENCY, MAX_REQUESTS); // JIT warm-up
    }
    const results = new Map(CELLS.map((cell) => [cellName(cell), []]));
    const byRep = []; // rep -> cell -> req/s, for per-repetition ratios
    for (let rep = 0; rep < RUNS; rep++) {
      const thisRep = new Map();
      byRep.push(thisRep);
      // Each era's cells run back to back (compared cells stay seconds apart on a noisy machine),
      // in an order rotated per repetition so slow drift favours no server.
      const order = ['modern', 'legacy'].flatMap((era) => {
        const cells = CELLS.filter((cell) => cell.era === era);
        const k = rep % cells.length;
        return [...cells.slice(k), ...cells.slice(0, k)];
      });
      for (const cell of order) {
        const server = running.get(cell.server);
        const spec = workload(cell.era, cell.tool, cell.args);
        const before = cpuMs(server.child.pid);
        const r = await load(server.port, spec, SECONDS, CONCURRENCY, MAX_REQUESTS);
        const cpuUs = ((cpuMs(server.child.pid) - before) * 1000) / Math.max(1, r.requests);
        results.get(cellName(cell)).push({ ...r, cpuUs });
        thisRep.set(cellName(cell), r.rps);
        process.stderr.write(
          `http ${cellName(cell)} rep ${rep + 1}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, ` +
            `${cpuUs.toFixed(0)} µs CPU/req (driver ${r.driverCpuUs.toFixed(0)}), non-2xx ${r.non2xx}, errors ${r.errors}\n`,
        );
      }
    }
    for (const cell of CELLS) await verify(running.get(cell.server).port, cell); // still healthy after the load

    const summary = new Map();
    for (const cell of CELLS) {
      const reps = results.get(cellName(cell));
      summary.set(cellName(cell), {
        rps: median(reps.map((r) => r.rps)),
        p50: median(reps.map((r) => r.p50)),
        p99: median(reps.map((r) => r.p99)),
        cpuUs: median(reps.map((r) => r.cpuUs)),
        driverUs: median(reps.map((r) => r.driverCpuUs)),
        bad: reps.reduce((n, r) => n + r.non2xx + r.errors, 0),
      });
    }
    // Ratios are medians of per-repetition ratios: the cells of one repetition ran close together.
    const ratio = (cell, base) =>
      median(byRep.map((rep) => rep.get(cellName(cell)) / rep.get(`${base}/${cell.era}/echo`)));
    const rows = CELLS.map((cell) => {
      const s = summary.get(cellName(cell));
      return [
        SERVERS.find((x) => x.name === cell.server).label,
        cell.era,
        cell.server === 'raw' ? '(fixed)' : cell.tool,
        s.rps,
        s.p50,
        s.p99,
        s.cpuUs,
        `${ratio(cell, 'raw').toFixed(2)}×`,
        `${ratio(cell, 'sdk').toFixed(2)}×`,
        s.driverUs,
        s.bad,
      ];
    });
    table(
      `HTTP tools/call at concurrency ${CONCURRENCY} (medians of ${RUNS} × ${SECONDS} s; server CPU from /proc; ` +
        `load average ${load1.toFixed(2)} → ${os.loadavg()[0].toFixed(2)})`,
      [
        'server',
        'era',
        'tool',
        'req/s',
        'p50 ms',
        'p99 ms',
        'CPU µs/req',
        'vs raw',
        'vs SDK',
        'driver µs/req',
        'non-2xx+err',
      ],
      rows,
    );
    const targets = ['modern', 'legacy'].map((era) => {
      const moor = CELLS.find((cell) => cellName(cell) === `moor/${era}/echo`);
      const vsRaw = ratio(moor, 'raw');
      const vsSdk = ratio(moor, 'sdk');
      return (
        `- ${era}: moor ${vsRaw.toFixed(2)}× raw (target ≥ 0.30: ${vsRaw >= 0.3 ? 'met' : 'NOT met'}), ` +
        `${vsSdk.toFixed(1)}× SDK (target ≥ 4: ${vsSdk >= 4 ? 'met' : 'NOT met'})`
      );
    });
    // The goals: get_decision against the raw ceiling, and what metrics cost (per-repetition
    // ratios of the metrics-on cell to the metrics-off cell that ran beside it).
    const getOn = CELLS.find((cell) => cellName(cell) === 'moor/modern/get_decision');
    const getVsRaw = ratio(getOn, 'raw');
    reportGoal('http-get', `${getVsRaw.toFixed(2)}×`, getVsRaw >= 0.85);
    for (const [id, tool] of [
      ['metrics-echo', 'echo'],
      ['metrics-get', 'get_decision'],
    ]) {
      const lost = median(
        byRep.map((rep) => 1 - rep.get(`moor/modern/${tool}`) / rep.get(`moor-nometrics/modern/${tool}`)),
      );
      reportGoal(id, `${(lost * 100).toFixed(1)}%`, lost <= 0.03);
    }
    console.log(
      `\nIssue 3 HTTP targets (same run, medians of per-repetition ratios):\n${targets.join('\n')}`,
    );
  } finally {
    stopAll();
  }
}

if (process.argv[2] === '--load') await runLoad();
else if (path.resolve(process.argv[1] ?? '') === SELF) await benchHttp();
