/**
 * Capabilities promise only what the transport delivers. With the official
 * SDK client in the 2025-11-25 era: over stdio --direct and through the
 * proxy (socket) `resources.subscribe` is advertised and a subscribed
 * record's write arrives as notifications/resources/updated; over stateless
 * HTTP, where no notification can reach the client, neither subscriptions
 * nor list changes are advertised and resources/subscribe is not a method.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { httpSuite } from '../helpers/http-suite.js';
import { connectHttp, connectStdio } from '../helpers/sdk-client.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';
import { authHeaders, type Daemon, startDaemon, tempState } from '../tasks/daemon-helpers.js';

const copies = new WorkspaceCopies('moor-capabilities-');
const clients = httpSuite(() => copies.removeAll());
let state: string;
let daemon: Daemon;

beforeAll(async () => {
  state = tempState('moor-capabilities-');
  daemon = await startDaemon(state, ['-w', copies.copy()]);
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

  it('stateless HTTP promises no subscriptions or list changes, and has no resources/subscribe', async () => {
    const client = await connectHttp('legacy', daemon.url, authHeaders(daemon.url));
    clients.push(client);
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toEqual({});
    expect(capabilities?.tools).toEqual({});
    const { resources } = await client.listResources();
    await expect(client.subscribeResource({ uri: resources[0]?.uri as string })).rejects.toMatchObject({
      code: -32601,
    });
  });
});
