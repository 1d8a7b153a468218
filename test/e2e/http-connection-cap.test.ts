/**
 * Slow HTTP clients cannot starve the daemon: under a low open-files limit
 * the HTTP connections are capped (below the limit, whatever --max-connections
 * says), a connection beyond the cap is closed at once, the Unix socket still
 * serves `moor daemon status` and a `moor stdio` proxy, and a client that
 * never finishes its headers is answered 408 and closed by the headers timeout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, control, makeState, type TestState, waitFor } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { connectStdio } from '../helpers/sdk-client.js';

const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await cleanupAll();
});

const FD_LIMIT = 256;
/** What the daemon keeps for HTTP under that limit: half of it (src/http/limits.ts). */
const CAP = FD_LIMIT / 2;

/** `moor daemon run --http 127.0.0.1:0` under `ulimit -n FD_LIMIT`; resolves with its HTTP port. */
async function startLimited(
  state: TestState,
  args: readonly string[],
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    'bash',
    [
      '-c',
      `ulimit -n ${FD_LIMIT}; exec "$0" "$@"`,
      process.execPath,
      MOOR_BIN,
      'daemon',
      'run',
      '--http',
      '127.0.0.1:0',
      '--workspace',
      E2E_WORKSPACE,
      ...args,
    ],
    { env: state.env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (child.pid) state.pids.add(child.pid);
  const stderr: string[] = [];
  child.stderr?.on('data', (c) => stderr.push(String(c)));
  const reply = await waitFor('the daemon to answer', async () => {
    if (child.exitCode !== null) throw new Error(`daemon exited ${child.exitCode}: ${stderr.join('')}`);
    return control(state, 'status');
  });
  const url = reply.status?.httpUrl;
  if (typeof url !== 'string') throw new Error('the daemon serves no HTTP');
  return { child, port: Number(new URL(url).port) };
}

interface Slow {
  readonly socket: net.Socket;
  readonly received: () => string;
  readonly closed: Promise<void>;
}

/** Connects and sends half a request's headers, then holds the connection. */
async function slowClient(port: number): Promise<Slow> {
  const socket = net.createConnection({ host: '127.0.0.1', port });
  sockets.push(socket);
  let data = '';
  socket.on('data', (chunk) => {
    data += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  return { socket, received: () => data, closed };
}

describe('HTTP connection cap and slow clients', () => {
  it('refuses connections beyond the cap at once and keeps the socket serving status and proxies', async () => {
    const state = makeState();
    const { port } = await startLimited(state, [
      '--max-connections',
      '1000',
      '--headers-timeout-ms',
      '600000',
      '--request-timeout-ms',
      '600000',
    ]);
    const held: Slow[] = [];
    for (let i = 0; i < CAP; i++) held.push(await slowClient(port));
    // Beyond the cap: accepted in order after the held ones, and closed without a byte.
    const extra: Slow[] = [];
    for (let i = 0; i < 4; i++) extra.push(await slowClient(port));
    await Promise.all(extra.map((s) => s.closed));
    expect(extra.map((s) => s.received())).toEqual(['', '', '', '']);
    expect(held.filter((s) => s.socket.destroyed)).toEqual([]);

    // A complete request beyond the cap is refused too, not left hanging.
    const late = await slowClient(port);
    late.socket.write('\r\n');
    await late.closed;
    expect(late.received()).toBe('');

    // The Unix socket still answers: status, and a proxy's tools/list.
    const status = await control(state, 'status');
    expect(status?.ok).toBe(true);
    const client = await connectStdio('auto', ['stdio', '--workspace', E2E_WORKSPACE], state.env);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('get_decision');
    } finally {
      await client.close();
    }
    expect(held.filter((s) => s.socket.destroyed)).toEqual([]);
  });

  it('answers 408 and closes a connection whose headers never finish', async () => {
    const state = makeState();
    const { port } = await startLimited(state, ['--headers-timeout-ms', '1000']);
    const slow = await Promise.all([slowClient(port), slowClient(port), slowClient(port)]);
    await Promise.all(slow.map((s) => s.closed));
    for (const s of slow) expect(s.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });
});
