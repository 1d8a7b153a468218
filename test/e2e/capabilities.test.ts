/**
 * Capabilities promise only what the transport delivers. With the official
 * SDK client in the 2025-11-25 era: over stdio --direct and through the
 * proxy (socket) `resources.subscribe` is advertised and a subscribed
 * record's write arrives as notifications/resources/updated. (Stateless 2025
 * HTTP still advertises subscribe, which it cannot deliver: the official
 * conformance suite subscribes there whatever is advertised.)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpSuite } from '../helpers/http-suite.js';
import { connectStdio } from '../helpers/sdk-client.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { startDaemon, tempState } from '../tasks/daemon-helpers.js';

const copies = new WorkspaceCopies('moor-capabilities-');
const clients = httpSuite(() => copies.removeAll());
let state: string;

beforeAll(async () => {
  state = tempState('moor-capabilities-');
  // The proxy case reaches this daemon (same state dir).
  await startDaemon(state, ['-w', copies.copy()]);
}, 20_000);

/** Subscribes to a decision's resource, rewrites its file and waits for the update. */
async function subscribedUpdateArrives(client: Client, workspace: string): Promise<string> {
  const { resources } = await client.listResources();
  const record = resources.find((r) => r.uri.includes('0001'));
  if (record === undefined) throw new Error('no resource for decision 1');
  const updated = new Promise<string>((resolve) => {
    client.fallbackNotificationHandler = async (notification) => {
      if (notification.method === 'notifications/resources/updated')
        resolve((notification.params as { uri: string }).uri);
    };
  });
  await client.subscribeResource({ uri: record.uri });
  const dir = path.join(workspace, 'docs/decisions');
  const file = fs.readdirSync(dir).find((f) => f.startsWith('0001')) as string;
  fs.appendFileSync(path.join(dir, file), '\nA line written while subscribed.\n');
  expect(await updated).toBe(record.uri);
  return record.uri;
}

describe('2025-era capabilities per transport', () => {
  it('stdio --direct advertises subscribe and delivers the update', async () => {
    const workspace = copies.copy();
    const client = await connectStdio('legacy', ['stdio', '--direct', '--workspace', workspace]);
    clients.push(client);
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true, subscribe: true });
    await subscribedUpdateArrives(client, workspace);
  });

  it('the proxy (socket) advertises subscribe and delivers the update', async () => {
    const workspace = copies.copy();
    const client = await connectStdio('legacy', ['stdio', '--workspace', workspace], {
      MOOR_STATE_DIR: state,
    });
    clients.push(client);
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true, subscribe: true });
    await subscribedUpdateArrives(client, workspace);
  });
});
