#!/usr/bin/env node
// Starts N moor daemons sharing one PostgreSQL store behind HAProxy (round robin, /healthz
// checks, no stickiness), all on 127.0.0.1, each daemon with its own state dir. For people
// trying the scale-out set-up, for the scale-out e2e test and for the scale benchmark.
//
//   node scripts/cluster.mjs [--daemons N] [--store postgres://…] [--port P] [-- daemon flags…]
//
// Without --store it uses $MOOR_STORE, else starts the throwaway cluster of
// scripts/pg-cluster.sh, in a fresh schema. Prints the balancer's /mcp URL and each daemon's,
// then runs until Ctrl-C, which stops everything it started. Needs `npm run build` and
// haproxy (/usr/sbin/haproxy, or $HAPROXY).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MOOR_BIN = path.join(ROOT, 'dist/cli/main.js');

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * The HAProxy configuration: round robin over `servers` ({name, port}), health-checked on /healthz.
 * With `pinHeader`, a request naming a server in that header goes to it (tests that need two
 * requests of one exchange on different daemons), and every answer names its server in
 * `x-moor-served-by`.
 */
export function haproxyConfig({ port, servers, checkIntervalMs = 200, pinHeader }) {
  const pinning =
    pinHeader === undefined
      ? ''
      : `${servers.map((s) => `  use-server ${s.name} if { req.hdr(${pinHeader}) -m str ${s.name} }`).join('\n')}
  http-response set-header x-moor-served-by %s
`;
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-keep-alive 10s
  # A request that could not reach a daemon (refused connection) goes to another one; a request
  # a daemon accepted is never sent twice: if it dies meanwhile the client gets a 502 to retry.
  retries 3
  retry-on conn-failure
  option redispatch

frontend moor_front
  bind 127.0.0.1:${port}
  default_backend moor_daemons

backend moor_daemons
  balance roundrobin
  # moor checks the Host header of every request (DNS-rebinding protection), the check's too.
  option httpchk
  http-check send meth GET uri /healthz ver HTTP/1.1 hdr Host 127.0.0.1
  http-check expect status 200
  default-server inter ${checkIntervalMs}ms fall 2 rise 1
${pinning}${servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n')}
`;
}

/** The throwaway PostgreSQL of scripts/pg-cluster.sh, with a fresh schema for this run. */
export function defaultStoreUrl() {
  const base =
    process.env.MOOR_STORE ??
    process.env.MOOR_TEST_PG_URL ??
    execFileSync('bash', [path.join(ROOT, 'scripts/pg-cluster.sh'), 'start'], { encoding: 'utf8' }).trim();
  const url = new URL(base);
  if (!url.searchParams.has('schema'))
    url.searchParams.set('schema', `cluster_${randomBytes(4).toString('hex')}`);
  return url.toString();
}

async function waitHealthy(port, child, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`daemon on port ${port} exited (${child.exitCode ?? child.signalCode})`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return response.json();
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`nothing answered on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The bearer token every daemon of a cluster shares (behind one URL a client
 * cannot know which daemon answers): 256 random bits in a 0600 file.
 */
export function makeTokenFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-cluster-token-'));
  const file = path.join(dir, 'http.token');
  const token = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { file, token, dir };
}

/** One daemon with its own state dir on a free port, up once its /healthz answers. */
export async function startClusterDaemon({ store, extra = [], env = {}, port, tokenFile }) {
  const at = port ?? (await freePort());
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-cluster-'));
  const auth = tokenFile === undefined ? [] : ['--token-file', tokenFile];
  const child = spawn(
    process.execPath,
    [
      MOOR_BIN,
      'daemon',
      'run',
      '--detached',
      '--http',
      `127.0.0.1:${at}`,
      '--store',
      store,
      ...auth,
      ...extra,
    ],
    { env: { ...process.env, ...env, MOOR_STATE_DIR: stateDir }, stdio: 'ignore' },
  );
  const health = await waitHealthy(at, child);
  return {
    port: at,
    url: `http://127.0.0.1:${at}/mcp`,
    child,
    stateDir,
    pid: health.incarnation?.pid ?? child.pid,
  };
}

/** HAProxy in the foreground (-db) with a generated config; resolves once it accepts connections. */
export async function startHaproxy({ servers, port, pinHeader }) {
  const at = port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-haproxy-'));
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(config, haproxyConfig({ port: at, servers, pinHeader }));
  const bin = process.env.HAPROXY ?? '/usr/sbin/haproxy';
  const child = spawn(bin, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${stderr}`);
    const up = await new Promise((resolve) => {
      const socket = net.connect(at, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not listen: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port: at, url: `http://127.0.0.1:${at}/mcp`, child, dir, stderr: () => stderr };
}

/** Waits until the balancer has seen every daemon healthy (its first checks take one interval). */
async function waitBalanced(url, daemons, ms = 10_000) {
  const seen = new Set();
  const deadline = Date.now() + ms;
  while (seen.size < daemons.length) {
    try {
      const response = await fetch(url.replace(/\/mcp$/, '/healthz'));
      if (response.ok) seen.add((await response.json()).incarnation?.pid);
    } catch {
      // the balancer has no healthy server yet
    }
    if (Date.now() > deadline) throw new Error('the balancer did not reach every daemon');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function kill(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}

/** N daemons on one store behind HAProxy. stop() ends everything and removes the state dirs. */
export async function startCluster({
  daemons = 2,
  store = defaultStoreUrl(),
  extra = [],
  env = {},
  port,
  pinHeader,
} = {}) {
  const started = [];
  let haproxy;
  const secret = makeTokenFile();
  try {
    for (let i = 0; i < daemons; i++)
      started.push(await startClusterDaemon({ store, extra, env, tokenFile: secret.file }));
    haproxy = await startHaproxy({
      servers: started.map((d, i) => ({ name: `moor${i}`, port: d.port })),
      port,
      pinHeader,
    });
    await waitBalanced(haproxy.url, started);
    return {
      url: haproxy.url,
      store,
      token: secret.token,
      haproxy,
      daemons: started,
      async stop() {
        await kill(haproxy.child);
        for (const d of started) await kill(d.child);
        fs.rmSync(haproxy.dir, { recursive: true, force: true });
        fs.rmSync(secret.dir, { recursive: true, force: true });
        for (const d of started) fs.rmSync(d.stateDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(secret.dir, { recursive: true, force: true });
    if (haproxy !== undefined) await kill(haproxy.child);
    for (const d of started) await kill(d.child, 'SIGKILL');
    throw error;
  }
}

function parseArgs(argv) {
  const options = { daemons: 2, extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.extra = argv.slice(i + 1);
      break;
    }
    if (arg === '--daemons') options.daemons = Number(argv[++i]);
    else if (arg === '--store') options.store = argv[++i];
    else if (arg === '--port') options.port = Number(argv[++i]);
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cluster = await startCluster(parseArgs(process.argv.slice(2)));
  console.log(`balancer: ${cluster.url}`);
  for (const d of cluster.daemons) console.log(`daemon pid ${d.pid}: ${d.url} (state ${d.stateDir})`);
  console.log(`store: ${cluster.store.replace(/\/\/[^@/]*@/, '//…@')}`);
  console.log(`send: Authorization: Bearer ${cluster.token}`);
  console.log('Ctrl-C stops them all.');
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
