/**
 * Change announcements through the built binary, with the official SDK
 * client: a decision edited → `resources/updated` for its URI, a file added
 * → `resources/list_changed`, over HTTP listen streams, the socket through
 * `moor stdio` (both eras) and direct stdio; only the connections of the
 * workspace that changed hear it; listen streams over the URI budget are
 * refused before their acknowledgement; a failing tool's log line carries
 * the caller's trace id.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpSuite } from '../helpers/http-suite.js';
import { connectHttp, connectStdio } from '../helpers/sdk-client.js';
import { until } from '../helpers/until.js';
import { authHeaders, type Daemon, startDaemon, tempState } from '../tasks/daemon-helpers.js';

const MODERN = '2026-07-28';

function workspace(name: string): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `moor-events-${name}-`)));
  fs.mkdirSync(path.join(root, '.git'));
  fs.mkdirSync(path.join(root, 'docs/decisions'), { recursive: true });
  writeDecision(root, '0001-first.md', 'First', 'one');
  return root;
}

function writeDecision(root: string, file: string, title: string, body: string): void {
  fs.writeFileSync(
    path.join(root, 'docs/decisions', file),
    `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n`,
  );
}

const URI = 'decision:///0001-first.md';
const EXTRA = Array.from({ length: 200 }, (_, i) => 1000 + i);
let a: string;
let b: string;
let state: string;
let daemon: Daemon;
const clients = httpSuite(() => {
  for (const root of [a, b]) fs.rmSync(root, { recursive: true, force: true });
});

type Seen = Array<{ method: string; params: Record<string, unknown> }>;

function record(client: Client): Seen {
  const seen: Seen = [];
  for (const method of ['notifications/resources/updated', 'notifications/resources/list_changed'] as const) {
    client.setNotificationHandler(method, (n) => {
      seen.push({ method, params: (n.params ?? {}) as Record<string, unknown> });
    });
  }
  return seen;
}

async function httpClient(root: string): Promise<Client> {
  const client = await connectHttp('modern', daemon.url, {
    ...authHeaders(daemon.url),
    'moor-workspace': root,
    'moor-session': `events-${path.basename(root)}`,
  });
  clients.push(client);
  return client;
}

async function socketClient(mode: 'legacy' | 'modern', root: string): Promise<Client> {
  const client = await connectStdio(mode, ['stdio', '-w', root], { MOOR_STATE_DIR: state });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  a = workspace('a');
  // Records for the membership budget: URIs that name no record cost nothing, so it is spent on real ones.
  for (const i of EXTRA) writeDecision(a, `${i}-extra.md`, `Extra ${i}`, 'for the budget');
  b = workspace('b');
  state = tempState('moor-events-e2e-');
  daemon = await startDaemon(state, ['-w', a, '--log-level', 'debug', '--listen-max-memberships', '300']);
}, 20_000);

describe('decision changes over HTTP listen streams', () => {
  it('reach the streams of the workspace that changed, and only those; added files list-change', async () => {
    const clientA = await httpClient(a);
    const clientB = await httpClient(b);
    const seenA = record(clientA);
    const seenB = record(clientB);
    const subA = await clientA.listen({ resourceSubscriptions: [URI], resourcesListChanged: true });
    const subB = await clientB.listen({ resourceSubscriptions: [URI], resourcesListChanged: true });
    expect(subA.honoredFilter).toEqual({ resourceSubscriptions: [URI], resourcesListChanged: true });

    writeDecision(a, '0001-first.md', 'First', 'edited in a');
    await until(() => seenA.length > 0, 10_000);
    writeDecision(b, '0001-first.md', 'First', 'edited in b');
    await until(() => seenB.length > 0, 10_000);
    writeDecision(a, '0002-second.md', 'Second', 'new in a');
    await until(() => seenA.some((n) => n.method === 'notifications/resources/list_changed'), 10_000);

    expect(seenA.map((n) => [n.method, n.params.uri])).toEqual([
      ['notifications/resources/updated', URI],
      ['notifications/resources/list_changed', undefined],
    ]);
    expect(seenA[0]?.params._meta).toMatchObject({
      'io.modelcontextprotocol/subscriptionId': expect.anything(),
    });
    expect(seenB.map((n) => [n.method, n.params.uri])).toEqual([['notifications/resources/updated', URI]]);
    await subA.close();
    await subB.close();
  }, 30_000);

  it('a stream asking for 257 URIs is refused with HTTP 429 before any acknowledgement', async () => {
    const uris = Array.from({ length: 257 }, (_, i) => `decision:///${i}.md`);
    const response = await fetch(daemon.url, {
      method: 'POST',
      headers: {
        ...authHeaders(daemon.url),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'too-many',
        method: 'subscriptions/listen',
        params: {
          notifications: { resourceSubscriptions: uris },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(response.status).toBe(429);
    const body = (await response.json()) as { id: string; error: { code: number; message: string } };
    expect(body.id).toBe('too-many');
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain('at most 256 resource URIs');
  });
});

describe('decision changes through moor stdio (the socket)', () => {
  it('a legacy subscriber hears resources/updated for its URI', async () => {
    const client = await socketClient('legacy', a);
    const seen = record(client);
    await client.subscribeResource({ uri: URI });
    writeDecision(a, '0001-first.md', 'First', 'edited for the legacy subscriber');
    await until(() => seen.some((n) => n.method === 'notifications/resources/updated'), 10_000);
    expect(seen.find((n) => n.method === 'notifications/resources/updated')?.params.uri).toBe(URI);
  }, 30_000);

  it('a modern listen stream hears it too; over the membership budget a listen is a JSON-RPC error', async () => {
    const client = await socketClient('modern', a);
    const seen = record(client);
    const sub = await client.listen({ resourceSubscriptions: [URI] });
    writeDecision(a, '0001-first.md', 'First', 'edited for the modern listener');
    await until(() => seen.length > 0, 10_000);
    expect(seen[0]).toMatchObject({ method: 'notifications/resources/updated', params: { uri: URI } });

    // 300 memberships in all: one is held by the stream above, 300 more do not fit.
    const uris = EXTRA.map((i) => `decision:///${i}-extra.md`);
    const first = await client.listen({ resourceSubscriptions: uris });
    await expect(client.listen({ resourceSubscriptions: uris })).rejects.toThrow(
      /listen streams already watch 201/,
    );
    // Closing a stream gives its memberships back.
    await first.close();
    const again = await client.listen({ resourceSubscriptions: uris });
    await again.close();
    await sub.close();
  }, 30_000);
});

describe('decision changes on direct stdio', () => {
  it('a legacy subscriber hears resources/updated', async () => {
    const client = await connectStdio('legacy', ['stdio', '--direct', '-w', b]);
    clients.push(client);
    const seen = record(client);
    await client.subscribeResource({ uri: URI });
    writeDecision(b, '0001-first.md', 'First', 'edited for direct');
    await until(() => seen.length > 0, 10_000);
    expect(seen[0]).toMatchObject({ method: 'notifications/resources/updated', params: { uri: URI } });
  }, 30_000);
});
