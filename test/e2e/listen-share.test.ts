/**
 * The listen budget of a real daemon, for HTTP sessions: URIs naming no
 * record of the session's loaded workspace (made up under the decisions
 * pack's own scheme) cost nothing, one session gets only its share of the
 * daemon's memberships, and another session still listens.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { authHeaders, killAll, startDaemon, tempState } from '../tasks/daemon-helpers.js';

const open: AbortController[] = [];
afterAll(async () => {
  for (const c of open) c.abort();
  await killAll();
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'listen-share', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

function post(
  url: string,
  session: string,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'moor-session': session,
      ...authHeaders(url),
      ...(method === 'tools/call' ? { 'mcp-name': String(params.name) } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } }),
    ...(signal !== undefined && { signal }),
  });
}

async function listen(url: string, session: string, uris: string[]): Promise<string> {
  const controller = new AbortController();
  open.push(controller);
  const response = await post(
    url,
    session,
    'subscriptions/listen',
    { notifications: { resourceSubscriptions: uris } },
    controller.signal,
  );
  if (response.status !== 200)
    return `${response.status} ${((await response.json()) as { error: { code: number } }).error.code}`;
  const first = new TextDecoder().decode((await response.body?.getReader().read())?.value);
  return first.includes('notifications/subscriptions/acknowledged') ? 'acked' : first;
}

const RECORDS = [
  'decision:///0001-record-architecture-decisions.md',
  'decision:///0002-use-postgresql-for-storage.md',
  'decision:///0003-use-sqlite-for-storage.md',
];
const fake = (tag: string) => [`decision:///9${tag}-made-up.md`, `decision:///8${tag}-made-up.md`];

describe('listen share on a real daemon', () => {
  it('made-up record URIs cost nothing; a session gets its share; another session still listens', async () => {
    const state = tempState('moor-listen-share-');
    const daemon = await startDaemon(state, [
      '--workspace',
      E2E_WORKSPACE,
      '--listen-max-uris',
      '2',
      '--listen-max-memberships',
      '6',
    ]);
    // A call loads the session's workspace, so its records can be looked up.
    const warm = await post(daemon.url, 'moor-greedy-session', 'tools/call', {
      name: 'list_superseded',
      arguments: {},
    });
    expect(warm.status).toBe(200);
    await warm.text();
    for (let i = 0; i < 5; i++)
      expect(await listen(daemon.url, 'moor-greedy-session', fake(String(i)))).toBe('acked');
    expect(await listen(daemon.url, 'moor-greedy-session', RECORDS.slice(0, 2))).toBe('acked');
    expect(await listen(daemon.url, 'moor-greedy-session', RECORDS.slice(2))).toBe('429 -32600');
    expect(await listen(daemon.url, 'moor-other-session', RECORDS.slice(0, 2))).toBe('acked');
  }, 30_000);

  it('made-up record URIs cost nothing on a session that has loaded no workspace yet', async () => {
    const state = tempState('moor-listen-share-cold-');
    const daemon = await startDaemon(state, [
      '--workspace',
      E2E_WORKSPACE,
      '--listen-max-uris',
      '2',
      '--listen-max-memberships',
      '6',
    ]);
    // No call first: the session's first request is a listen, and its URIs are made up.
    for (let i = 0; i < 3; i++)
      expect(await listen(daemon.url, 'moor-cold-session', fake(String(i)))).toBe('acked');
    // Real records still count, against the workspace the listen loaded.
    expect(await listen(daemon.url, 'moor-cold-session', RECORDS.slice(0, 2))).toBe('acked');
    expect(await listen(daemon.url, 'moor-cold-session', RECORDS.slice(2))).toBe('429 -32600');
  }, 30_000);
});
