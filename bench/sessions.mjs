// `npm run bench sessions`: the session layer through a real daemon's HTTP endpoint
// (2026-07-28 tools/call, Moor-Session header, bearer token):
// - connect_workspace between two workspaces the session already holds (rooms loaded): p50/p95,
// - connect_workspace to a cold 1k-decision corpus (a fresh copy each time, so the room loads),
// - daemon RSS with 100 sessions × 9 workspaces (1 active + 8 parked) over 10 shared 1k corpora:
//   rooms are shared by every session bound to them, so 10 rooms are loaded, not 900.
// Usage: node bench/sessions.mjs   (needs `npm run build`)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { corpus, percentile, ROOT, table } from './lib.mjs';

const BIN = path.join(ROOT, 'dist/cli/main.js');
const WARM_CONNECTS = Number(process.env.BENCH_SESSIONS_WARM ?? 200);
const COLD_CONNECTS = Number(process.env.BENCH_SESSIONS_COLD ?? 5);
const SESSIONS = 100;
const PER_SESSION = 9;
const CORPORA = 10;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench-sessions', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startDaemon(stateDir) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [BIN, 'daemon', 'run', '--detached', '--http', `127.0.0.1:${port}`, '--max-rooms', '64'],
    { env: { ...process.env, MOOR_STATE_DIR: stateDir }, stdio: 'ignore' },
  );
  const tokenFile = path.join(stateDir, 'http.token');
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      const r = await fetch(`http://127.0.0.1:${port}/healthz`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (r.ok) return { child, url: `http://127.0.0.1:${port}/mcp`, token };
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the daemon did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}

let nextId = 1;

async function callTool(daemon, session, name, args) {
  const response = await fetch(daemon.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${daemon.token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      'moor-session': session,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name, arguments: args, _meta: ENVELOPE },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('\ndata: ').pop() ?? '{}');
  if (json.error || json.result?.isError)
    throw new Error(`${name}: ${JSON.stringify(json.error ?? json.result)}`);
  return json.result;
}

async function status(stateDir) {
  const { askDaemon } = await import('../dist/app/control/daemon-control.js');
  const { statePaths } = await import('../dist/protocol/state-dir.js');
  return (await askDaemon(statePaths(stateDir), 'status'))?.status;
}

/** `count` fresh copies of the 1k corpus (each a workspace root that is its own decision folder). */
function copies(base, count, prefix) {
  const { dir } = corpus(1000);
  return Array.from({ length: count }, (_, i) => {
    const copy = path.join(base, `${prefix}-${i}`);
    fs.cpSync(dir, copy, { recursive: true });
    return copy;
  });
}

const connect = (daemon, session, root) =>
  callTool(daemon, session, 'connect_workspace', { path: root, decisions: root });

export async function benchSessions() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-bench-sessions-')));
  const stateDir = path.join(base, 'state');
  fs.mkdirSync(stateDir, { mode: 0o700 });
  const daemon = await startDaemon(stateDir);
  try {
    const idle = (await status(stateDir)).memory.rss;

    // Warm: two workspaces the session holds; each connect swaps active and parked.
    const [w1, w2] = copies(base, 2, 'warm');
    await connect(daemon, 'bench-warm-session', w1);
    await connect(daemon, 'bench-warm-session', w2);
    const warm = [];
    for (let i = 0; i < WARM_CONNECTS; i++) {
      const started = performance.now();
      await connect(daemon, 'bench-warm-session', i % 2 === 0 ? w1 : w2);
      warm.push(performance.now() - started);
    }

    // Cold: every connect loads a corpus nobody has loaded.
    const cold = [];
    for (const [i, root] of copies(base, COLD_CONNECTS, 'cold').entries()) {
      const started = performance.now();
      await connect(daemon, `bench-cold-session-${i}`, root);
      cold.push(performance.now() - started);
    }

    // Shared: 100 sessions, each bound to 9 of 10 corpora (a different one left out per session).
    const shared = copies(base, CORPORA, 'shared');
    const before = await status(stateDir);
    const roomsBefore = before.rooms.length;
    const sharedStarted = performance.now();
    for (let s = 0; s < SESSIONS; s++) {
      for (let k = 0; k < PER_SESSION; k++) {
        await connect(
          daemon,
          `bench-shared-session-${String(s).padStart(3, '0')}`,
          shared[(s + k) % CORPORA],
        );
      }
    }
    const sharedSeconds = (performance.now() - sharedStarted) / 1000;
    const after = await status(stateDir);
    const sharedRooms = after.rooms.filter((r) => shared.includes(r.root));
    const mib = (bytes) => +(bytes / 2 ** 20).toFixed(1);

    table(
      'sessions: connect_workspace through the daemon (HTTP, 2026-07-28, ms)',
      ['case', 'connects', 'p50', 'p95', 'max'],
      [
        [
          'between two loaded workspaces (room held)',
          WARM_CONNECTS,
          percentile(warm, 50),
          percentile(warm, 95),
          Math.max(...warm),
        ],
        [
          'to a cold 1k-decision corpus (room loads)',
          String(COLD_CONNECTS),
          percentile(cold, 50),
          percentile(cold, 95),
          Math.max(...cold),
        ],
      ],
    );
    table(
      `sessions: daemon memory, ${SESSIONS} sessions × ${PER_SESSION} workspaces over ${CORPORA} shared 1k corpora`,
      ['state', 'rooms loaded', 'sessions in memory', 'RSS MiB'],
      [
        ['idle daemon', '0', '0', mib(idle)],
        [
          'after the connect benchmarks',
          String(roomsBefore),
          String(before.sessions.length),
          mib(before.memory.rss),
        ],
        [
          `after ${SESSIONS * PER_SESSION} connects (${sharedSeconds.toFixed(1)} s)`,
          `${after.rooms.length} (${sharedRooms.length} shared)`,
          String(after.sessions.length),
          mib(after.memory.rss),
        ],
      ],
    );
  } finally {
    daemon.child.kill('SIGTERM');
    await new Promise((r) => daemon.child.once('exit', r));
    fs.rmSync(base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSessions();
