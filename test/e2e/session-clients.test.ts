/**
 * Sessions an operator can tell apart: `moor sessions list` (text and
 * --json) shows the client each session's handshake named — 2025
 * `initialize` clientInfo, 2026-07-28 `_meta` client info — for sessions
 * through the proxy (socket) and over HTTP, in both eras; the names are
 * still there after the daemon restarts (read back from moor.db); a session
 * that connected but never made a call is not stored at all.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeState, runCli } from '../daemon/harness.js';
import { httpSuite } from '../helpers/http-suite.js';
import { MOOR_BIN } from '../helpers/paths.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { authHeaders, type Daemon, startDaemon, tempState } from '../tasks/daemon-helpers.js';

type Era = 'legacy' | 'modern';

const copies = new WorkspaceCopies('moor-session-clients-');
const clients = httpSuite(() => copies.removeAll());
let state: string;
let workspace: string;
let daemon: Daemon;

beforeAll(async () => {
  state = tempState('moor-session-clients-');
  workspace = copies.copy();
  daemon = await startDaemon(state, ['-w', workspace]);
}, 20_000);

function sdkClient(name: string, version: string, era: Era): Client {
  const client = new Client(
    { name, version },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
  clients.push(client);
  return client;
}

/** A client through `moor stdio` (the proxy) to the test's daemon. */
async function viaProxy(name: string, version: string, era: Era): Promise<Client> {
  const client = sdkClient(name, version, era);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [MOOR_BIN, 'stdio', '--workspace', workspace],
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), MOOR_STATE_DIR: state },
    }),
  );
  return client;
}

/** A client over the daemon's HTTP endpoint, as session `key`. */
async function viaHttp(name: string, version: string, era: Era, key: string): Promise<Client> {
  const client = sdkClient(name, version, era);
  const headers = { ...authHeaders(daemon.url), 'moor-session': key };
  await client.connect(new StreamableHTTPClientTransport(new URL(daemon.url), { requestInit: { headers } }));
  return client;
}

interface Listed {
  keyPrefix: string;
  inMemory: boolean;
  client: { name: string; version: string } | null;
}

async function sessionsList(): Promise<{ json: Listed[]; text: string }> {
  const cli = (args: string[]) => runCli(makeState({ MOOR_STATE_DIR: state }), args);
  const json = await cli(['sessions', 'list', '--json']);
  expect(json.code).toBe(0);
  const text = await cli(['sessions', 'list']);
  expect(text.code).toBe(0);
  return { json: (JSON.parse(json.stdout) as { sessions: Listed[] }).sessions, text: text.stdout };
}

const CALLED = [
  { name: 'proxy-legacy-client', version: '1.1.0' },
  { name: 'proxy-modern-client', version: '1.2.0' },
  { name: 'http-legacy-client', version: '2.1.0' },
  { name: 'http-modern-client', version: '2.2.0' },
];

describe('the client of each session', () => {
  it('is listed for the sessions that made a call, kept across a restart; idle ones are not stored', async () => {
    const [proxyLegacy, proxyModern, httpLegacy, httpModern] = CALLED as [
      (typeof CALLED)[0],
      (typeof CALLED)[0],
      (typeof CALLED)[0],
      (typeof CALLED)[0],
    ];
    const called = [
      await viaProxy(proxyLegacy.name, proxyLegacy.version, 'legacy'),
      await viaProxy(proxyModern.name, proxyModern.version, 'modern'),
      await viaHttp(httpLegacy.name, httpLegacy.version, 'legacy', 'session-clients-http-legacy-0001'),
      await viaHttp(httpModern.name, httpModern.version, 'modern', 'session-clients-http-modern-0001'),
    ];
    for (const client of called) {
      const result = await client.callTool({ name: 'list_workspaces', arguments: {} });
      expect(result.isError).toBeFalsy();
    }
    // Connected (handshake done) but no call: neither may leave a session behind.
    await viaProxy('idle-proxy-client', '9.0.0', 'legacy');
    await viaProxy('idle-proxy-modern-client', '9.0.1', 'modern');
    await viaHttp('idle-http-client', '9.1.0', 'legacy', 'session-clients-http-idle-0001');

    const before = await sessionsList();
    expect(
      before.json.map((s) => s.client).sort((a, b) => (a?.name ?? '').localeCompare(b?.name ?? '')),
    ).toEqual([...CALLED].sort((a, b) => a.name.localeCompare(b.name)));
    for (const { name, version } of CALLED) expect(before.text).toContain(`${name} ${version}`);
    expect(before.text).not.toContain('idle-');

    for (const client of clients.splice(0)) await client.close();
    daemon.child.kill('SIGTERM');
    await new Promise((resolve) => daemon.child.once('exit', resolve));
    daemon = await startDaemon(state, ['-w', workspace]);

    const after = await sessionsList();
    expect(after.json.every((s) => !s.inMemory)).toBe(true);
    expect(after.json.map((s) => [s.keyPrefix, s.client])).toEqual(
      before.json.map((s) => [s.keyPrefix, s.client]),
    );
    for (const { name, version } of CALLED) expect(after.text).toContain(`${name} ${version}`);
  }, 60_000);
});
