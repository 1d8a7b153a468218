/**
 * Sessions over Streamable HTTP with the official SDK client, on both eras:
 * a session is its Moor-Session header (the bearer token beside it); it
 * connects (the previous workspace parks), queries a parked one by the
 * `workspace` argument, loses the least recently used past `--max-parked 1`,
 * disconnects, with the exact error after each drop; Moor-Workspace names a
 * connected workspace for one client's requests; without the header the
 * in-band `_meta["moor.dev/session"]` names the session, and the header wins
 * when both are sent. Then the operators' view: `moor daemon status` and
 * `moor sessions list|show|drop` over the same daemon.
 */
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeState, runCli } from '../daemon/harness.js';
import { httpSuite } from '../helpers/http-suite.js';
import { connectHttp } from '../helpers/sdk-client.js';
import {
  expectStrangerThenEviction,
  noWorkspaceActive,
  toolText as text,
  listWorkspaces as workspaces,
} from '../helpers/session-tools.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { authHeaders, type Daemon, startDaemon, tempState } from '../tasks/daemon-helpers.js';

type Mode = 'legacy' | 'modern';
const copies = new WorkspaceCopies('moor-session-http-');
const clients = httpSuite(() => copies.removeAll());
let state: string;
let daemon: Daemon;
let a: string;
let b: string;
let c: string;

beforeAll(async () => {
  // b lacks decision 3, so the workspaces can be told apart.
  a = copies.copy();
  b = copies.copy('0003-use-sqlite-for-storage.md');
  c = copies.copy();
  state = tempState('moor-sessions-http-');
  daemon = await startDaemon(state, ['-w', a, '--max-parked', '1']);
}, 20_000);

async function connect(mode: Mode, headers: Record<string, string>): Promise<Client> {
  const client = await connectHttp(mode, daemon.url, { ...authHeaders(daemon.url), ...headers });
  clients.push(client);
  expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'modern' ? '2026-07-28' : '2025-11-25');
  return client;
}

/** get_decision 3 succeeds in a and c and fails in b (b has no decision 3). */
async function hasDecision3(client: Client, workspace?: string): Promise<boolean> {
  const result = await client.callTool({
    name: 'get_decision',
    arguments: { ref: '3', ...(workspace === undefined ? {} : { workspace }) },
  });
  return result.isError !== true;
}

describe.each(['legacy', 'modern'] as const)('sessions over HTTP, %s', (mode) => {
  const key = `http-e2e-${mode}-0123456789abcdef`;

  it('connects, parks, queries a parked workspace, evicts, disconnects, with the exact errors', async () => {
    const client = await connect(mode, { 'moor-session': key });
    expect(await workspaces(client)).toEqual({ active: a, parked: [] });
    const connected = await client.callTool({ name: 'connect_workspace', arguments: { path: b } });
    expect(connected.isError).toBeFalsy();
    expect(connected.structuredContent).toMatchObject({ root: b, generation: 2, decisionCount: 4 });
    expect(await workspaces(client)).toEqual({ active: b, parked: [a] });

    // The parked one answers by name without switching; the active one lacks decision 3.
    expect(await hasDecision3(client)).toBe(false);
    expect(await hasDecision3(client, a)).toBe(true);
    expect(await workspaces(client)).toEqual({ active: b, parked: [a] });

    // Moor-Workspace names a connected workspace for this client's requests; the session is the same.
    const pinned = await connect(mode, { 'moor-session': key, 'moor-workspace': a });
    expect(await hasDecision3(pinned)).toBe(true);
    expect(await workspaces(pinned)).toEqual({ active: b, parked: [a] });

    // One parked at most: connecting c evicts a, the least recently used.
    await expectStrangerThenEviction(client, { a, b, c });

    const gone = await client.callTool({ name: 'disconnect_workspace', arguments: {} });
    expect(gone.isError).toBeFalsy();
    expect(gone.structuredContent).toMatchObject({ disconnected: { root: c }, active: null });
    const none = await client.callTool({ name: 'list_superseded', arguments: {} });
    expect(none.isError).toBe(true);
    expect(text(none)).toBe(noWorkspaceActive(c, b));
    // The parked one still answers by name.
    expect(await hasDecision3(client, b)).toBe(false);
    const parkedCall = await client.callTool({ name: 'list_superseded', arguments: { workspace: b } });
    expect(parkedCall.isError).toBeFalsy();
  });

  it('names the session in _meta without the header; the header wins when both are sent', async () => {
    const inBand = `${key}-in-band`;
    const other = `${key}-header`;
    const withHeader = await connect(mode, { 'moor-session': inBand });
    await withHeader.callTool({ name: 'connect_workspace', arguments: { path: b } });
    const headerOnly = await connect(mode, { 'moor-session': other });
    await headerOnly.callTool({ name: 'connect_workspace', arguments: { path: c } });

    const keyless = await connect(mode, {});
    const refused = await keyless.callTool({ name: 'list_workspaces', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      "list_workspaces keeps per-session workspaces, and this request carries no session key: connect through moor's proxy, or send a Moor-Session header.",
    );
    expect(await workspaces(keyless, { 'moor.dev/session': inBand })).toEqual({ active: b, parked: [a] });
    // Both: the header's session answers, not the one in _meta.
    expect(await workspaces(headerOnly, { 'moor.dev/session': inBand })).toEqual({ active: c, parked: [a] });
  });
});

describe('operators over the same daemon', () => {
  const key = 'http-e2e-operator-fedcba9876543210';
  const cli = (args: string[]) => runCli(makeState({ MOOR_STATE_DIR: state }), args);

  it('status and moor sessions list show sessions by key prefix; show and drop name one by prefix', async () => {
    const client = await connect('modern', { 'moor-session': key });
    await client.callTool({ name: 'connect_workspace', arguments: { path: b } });
    const another = await connect('legacy', { 'moor-session': 'http-e2e-operator-other-0000' });
    await workspaces(another);

    const status = await cli(['daemon', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(status.stdout).not.toContain(key);
    const view = JSON.parse(status.stdout) as {
      sessions: Array<{
        keyPrefix: string;
        active: { root: string } | null;
        parked: Array<{ root: string }>;
      }>;
      rooms: Array<{ root: string; holders: number; loaded: boolean; decisionCount: number | null }>;
    };
    // The two keys share their first 18 characters: each is shown by as much as tells it apart.
    const mine = view.sessions.find((s) => s.active?.root === b && s.keyPrefix === 'http-e2e-operator-f…');
    expect(mine).toMatchObject({
      keyPrefix: 'http-e2e-operator-f…',
      active: { root: b, decisions: null, decisionCount: 4, problems: 0, loaded: true },
      parked: [{ root: a, loaded: false }],
      connections: 1,
      inMemory: true,
    });
    expect(view.rooms.find((r) => r.root === b)).toMatchObject({ loaded: true, decisionCount: 4 });
    // 2025 over stateless HTTP names its client only in initialize, a POST before the session's first call.
    expect(view.sessions.find((s) => s.keyPrefix === 'http-e2e-operator-o…')).toMatchObject({
      client: { name: 'moor-e2e', version: '1.0.0' },
    });
    expect((await cli(['daemon', 'status'])).stdout).toContain('http-e2e-operator-f…  1 connections');

    const list = await cli(['sessions', 'list']);
    expect(list.code).toBe(0);
    // The client column: the name and version the SDK client's handshake gave (2026-07-28: in _meta).
    expect(list.stdout).toMatch(
      new RegExp(`http-e2e-operator-f…\\s+moor-e2e 1\\.0\\.0\\s+1\\s+1\\s+\\S+ \\S+\\s+${b}`),
    );
    expect(list.stdout).toContain('http-e2e-operator-o…');
    expect(list.stdout).not.toContain(key);

    // A prefix both keys start with: the error tells them apart (most recently used first).
    const ambiguous = await cli(['sessions', 'show', 'http-e2e-ope…']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toBe(
      'moor: "http-e2e-ope" matches 2 sessions: http-e2e-operator-o…, http-e2e-operator-f…; give more of the key\n',
    );
    const unknown = await cli(['sessions', 'drop', 'nobody-', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({
      error: {
        code: 'SESSION_NOT_FOUND',
        message: 'no session\'s key starts with "nobody-"; see moor sessions list',
      },
    });

    const shown = await cli(['sessions', 'show', 'http-e2e-operator-f…', '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      keyPrefix: 'http-e2e-operator-f…',
      active: { root: b },
    });

    const dropped = await cli(['sessions', 'drop', 'http-e2e-operator-f']);
    expect(dropped.code).toBe(0);
    expect(dropped.stdout).toContain('dropped session http-e2e-operator-f…; it had:');
    const after = await cli(['sessions', 'show', 'http-e2e-operator-f']);
    expect(after.code).toBe(1);
    expect(after.stderr).toBe(
      'moor: no session\'s key starts with "http-e2e-operator-f"; see moor sessions list\n',
    );

    // The client still sends the key: its session starts again, like a new one, in the daemon default.
    expect(await workspaces(client)).toEqual({ active: a, parked: [] });
  });
});
