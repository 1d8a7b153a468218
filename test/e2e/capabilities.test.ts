/**
 * Capabilities promise only what the transport delivers. With the official
 * SDK client, every transport (stdio --direct, the proxy's socket, the
 * daemon's HTTP) in both eras: what is advertised is exactly what the leg
 * can carry, and each advertised change capability does something there —
 * a subscribed record's edit arrives as notifications/resources/updated and
 * a new record as notifications/resources/list_changed (2025: after
 * resources/subscribe; 2026-07-28: on a subscriptions/listen stream).
 *
 * Stateless 2025 HTTP keeps no stream open between POSTs, so nothing
 * unsolicited can reach its client: it advertises no `subscribe` and no
 * `listChanged` (resources/subscribe still answers `{}`, since the official
 * conformance suite subscribes regardless).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpSuite } from '../helpers/http-suite.js';
import { connectHttp, connectStdio } from '../helpers/sdk-client.js';
import { until } from '../helpers/until.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { authHeaders, type Daemon, startDaemon, tempState } from '../tasks/daemon-helpers.js';

type Era = 'legacy' | 'modern';
type Leg = 'stdio --direct' | 'proxy' | 'http';

const copies = new WorkspaceCopies('moor-capabilities-');
const clients = httpSuite(() => copies.removeAll());
let state: string;
let daemon: Daemon;

beforeAll(async () => {
  state = tempState('moor-capabilities-');
  // The proxy cases reach this daemon (same state dir); the HTTP cases its endpoint.
  daemon = await startDaemon(state, ['-w', copies.copy()]);
}, 20_000);

async function connect(leg: Leg, era: Era, workspace: string): Promise<Client> {
  const client =
    leg === 'stdio --direct'
      ? await connectStdio(era, ['stdio', '--direct', '--workspace', workspace])
      : leg === 'proxy'
        ? await connectStdio(era, ['stdio', '--workspace', workspace], { MOOR_STATE_DIR: state })
        : await connectHttp(era, daemon.url, {
            ...authHeaders(daemon.url),
            'moor-workspace': workspace,
            'moor-session': `capabilities-${era}-${path.basename(workspace)}`,
          });
  clients.push(client);
  return client;
}

const DELIVERING = {
  tools: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
  completions: {},
  logging: {},
};
const DECISION_PATH = {
  ref: { type: 'ref/resource', uri: 'decision:///{+path}' },
  argument: { name: 'path', value: '0' },
} as const;
const SKILLS = 'io.modelcontextprotocol/skills';
const TASKS = 'io.modelcontextprotocol/tasks';

/** What each leg must advertise: everything, except stateless 2025 HTTP's undeliverable notifications. */
function expectedCapabilities(leg: Leg, era: Era): Record<string, unknown> {
  if (leg === 'http' && era === 'legacy') return { ...DELIVERING, tools: {}, resources: {} };
  return DELIVERING;
}

type Seen = Array<{ method: string; uri: unknown }>;

function record(client: Client): Seen {
  const seen: Seen = [];
  for (const method of ['notifications/resources/updated', 'notifications/resources/list_changed'] as const) {
    client.setNotificationHandler(method, (n) => {
      seen.push({ method, uri: (n.params as { uri?: unknown } | undefined)?.uri });
    });
  }
  return seen;
}

function decisionsDir(workspace: string): string {
  return path.join(workspace, 'docs/decisions');
}

/** Subscribes (as the era does) to decision 1's resource and resource list; returns the closer. */
async function subscribe(client: Client, era: Era, uri: string): Promise<() => Promise<void>> {
  if (era === 'legacy') {
    expect(await client.subscribeResource({ uri })).toEqual({});
    return async () => {};
  }
  const listen = await client.listen({ resourceSubscriptions: [uri], resourcesListChanged: true });
  return () => listen.close();
}

/** Edits decision 1, then adds a record; both announcements arrive, in order. */
async function changesArrive(client: Client, era: Era, workspace: string): Promise<void> {
  const { resources } = await client.listResources();
  const uri = resources.find((r) => r.uri.includes('0001'))?.uri;
  if (uri === undefined) throw new Error('no resource for decision 1');
  const seen = record(client);
  const close = await subscribe(client, era, uri);
  const dir = decisionsDir(workspace);
  const file = fs.readdirSync(dir).find((f) => f.startsWith('0001')) as string;
  fs.appendFileSync(path.join(dir, file), '\nA line written while subscribed.\n');
  await until(() => seen.length > 0, 10_000);
  fs.writeFileSync(
    path.join(dir, '0999-added.md'),
    '# Added\n\n## Status\n\nProposed\n\n## Context\n\nNew.\n',
  );
  await until(() => seen.some((n) => n.method === 'notifications/resources/list_changed'), 10_000);
  expect(seen[0]).toEqual({ method: 'notifications/resources/updated', uri });
  await close();
}

const LEGS: readonly Leg[] = ['stdio --direct', 'proxy', 'http'];
const ERAS: readonly Era[] = ['legacy', 'modern'];

describe.each(LEGS)('capabilities over %s', (leg) => {
  it.each(ERAS)(
    '%s: advertises only what the leg delivers, and each does something',
    async (era) => {
      const workspace = copies.copy();
      const client = await connect(leg, era, workspace);
      const advertised = client.getServerCapabilities() ?? {};
      const { extensions: _extensions, ...core } = advertised;
      expect(core).toEqual(expectedCapabilities(leg, era));
      if (advertised.resources?.subscribe) await changesArrive(client, era, workspace);
      else expect(await client.subscribeResource({ uri: 'decision:///0001-x.md' })).toEqual({});
      // Served on every leg; the decisions pack has no completer, so the answer is an empty one.
      const { completion } = await client.complete(DECISION_PATH);
      expect(completion).toEqual({ values: [], total: 0, hasMore: false });
      // Durable tasks need the daemon's store, and 2026-07-28 to be declared in.
      expect(Object.keys(advertised.extensions ?? {}).sort()).toEqual(
        leg !== 'stdio --direct' && era === 'modern' ? [SKILLS, TASKS] : [SKILLS],
      );
      if (advertised.logging && era === 'legacy') expect(await client.setLoggingLevel('debug')).toEqual({});
    },
    30_000,
  );
});
