/**
 * The daemon's HTTP endpoint needs a bearer token by default, even on
 * loopback: the state dir's http.token (created 0600, 256 bits), or a
 * --token-file that is owner-only and long enough; --no-token opens loopback
 * HTTP explicitly. A daemon running as root refuses system folders as workspaces.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, control, exitOf, makeState, startDaemon, type TestState } from '../daemon/harness.js';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { MODERN_META } from '../helpers/raw-client.js';

afterEach(cleanupAll);

const LIST = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: { _meta: MODERN_META },
});

function post(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      ...headers,
    },
    body: LIST,
  });
}

async function httpUrl(state: TestState): Promise<string> {
  const status = await control(state, 'status');
  return status?.status?.httpUrl as string;
}

/** `daemon run` that is expected to refuse its flags: its exit code and stderr. */
async function refusedRun(
  state: TestState,
  args: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MOOR_BIN, 'daemon', 'run', ...args], {
    env: state.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (child.pid) state.pids.add(child.pid);
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const code = await exitOf(child);
  return { code, stderr };
}

describe('HTTP bearer token by default', () => {
  it('creates http.token (0600, 256 bits) and refuses a request without it', async () => {
    const state = makeState();
    await startDaemon(state, ['--http', '127.0.0.1:0', '--workspace', E2E_WORKSPACE]);
    const file = path.join(state.dir, 'http.token');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(file, 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const url = await httpUrl(state);

    const anonymous = await post(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer realm="moor"/);
    expect((await post(url, { authorization: 'Bearer not-the-token' })).status).toBe(401);

    const client = new Client({ name: 'moor-token-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('get_decision');
    } finally {
      await client.close();
    }
  });

  it('keeps the token across restarts of the daemon', async () => {
    const state = makeState();
    fs.writeFileSync(path.join(state.dir, 'http.token'), `${'k'.repeat(43)}\n`, { mode: 0o600 });
    await startDaemon(state, ['--http', '127.0.0.1:0', '--workspace', E2E_WORKSPACE]);
    const url = await httpUrl(state);
    expect((await post(url, { authorization: `Bearer ${'k'.repeat(43)}` })).status).toBe(200);
  });

  it('--no-token serves loopback without one, and is refused beyond loopback', async () => {
    const state = makeState();
    await startDaemon(state, ['--http', '127.0.0.1:0', '--no-token', '--workspace', E2E_WORKSPACE]);
    expect((await post(await httpUrl(state))).status).toBe(200);
    expect(fs.existsSync(path.join(state.dir, 'http.token'))).toBe(false);

    const other = makeState();
    const wide = await refusedRun(other, ['--http', '0.0.0.0:0', '--no-token']);
    expect(wide.code).not.toBe(0);
    expect(wide.stderr).toMatch(/not a loopback address, needs a bearer token/);
  });

  it('refuses a --token-file others can read, or one too short', async () => {
    const state = makeState();
    const open = path.join(state.dir, 'open.token');
    fs.writeFileSync(open, 'x'.repeat(43), { mode: 0o644 });
    fs.chmodSync(open, 0o644);
    const readable = await refusedRun(state, ['--http', '127.0.0.1:0', '--token-file', open]);
    expect(readable.code).not.toBe(0);
    expect(readable.stderr).toMatch(/readable by others \(mode 644\); chmod 600 it/);

    const short = path.join(state.dir, 'short.token');
    fs.writeFileSync(short, 'x'.repeat(31), { mode: 0o600 });
    const tooShort = await refusedRun(state, ['--http', '127.0.0.1:0', '--token-file', short]);
    expect(tooShort.code).not.toBe(0);
    expect(tooShort.stderr).toMatch(/too short \(31 characters; at least 32\)/);
  });

  it('refuses a system folder as Moor-Workspace', async () => {
    const state = makeState();
    await startDaemon(state, ['--http', '127.0.0.1:0', '--no-token', '--workspace', E2E_WORKSPACE]);
    const url = await httpUrl(state);
    for (const folder of ['/', '/etc', '/usr/share']) {
      const refused = await post(url, { 'moor-workspace': folder });
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32602);
    }
  });
});
