/**
 * The proxy's change feed through the built binary and a real daemon: a
 * decision record added to the workspace changes resources/list, and a
 * 2025-era client is told once, by the proxy's poll (or the daemon's push,
 * when it sends one), without asking.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, makeState } from '../daemon/harness.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { ProxyClient } from '../proxy/proxy-client.js';

const dirs: string[] = [];
afterEach(async () => {
  await cleanupAll();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const RECORD = `---
status: accepted
date: 2026-04-01
---
# Poll the lists

## Context and Problem Statement

A client must learn that the list changed.
`;

describe('the proxy never goes stale', () => {
  it('a legacy client is told once that resources/list changed when a record is added', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-feed-ws-'));
    dirs.push(workspace);
    fs.cpSync(E2E_WORKSPACE, workspace, { recursive: true });
    const state = makeState();
    const client = new ProxyClient(state, ['stdio', '--workspace', workspace], { MOOR_PROXY_POLL_MS: '100' });
    await client.initialize();
    const before = (await client.request('resources/list')).result?.resources as Array<{ uri: string }>;
    expect(before.length).toBeGreaterThan(0);

    fs.writeFileSync(path.join(workspace, 'docs/decisions/0006-poll-the-lists.md'), RECORD);
    await client.until(
      'resources/list_changed',
      () => client.notifications('notifications/resources/list_changed')[0],
      20_000,
    );
    const after = (await client.request('resources/list')).result?.resources as Array<{ uri: string }>;
    expect(after).toHaveLength(before.length + 1);
    expect(client.notifications('notifications/resources/list_changed')).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
    ]);
    expect(client.notifications('notifications/tools/list_changed')).toEqual([]);
  }, 40_000);

  it('rejects a malformed MOOR_PROXY_POLL_MS with a warning and still serves', async () => {
    const state = makeState();
    const client = new ProxyClient(state, undefined, { MOOR_PROXY_POLL_MS: 'soon' });
    await client.initialize();
    await client.until('the warning', () => (client.stderr.length > 0 ? true : undefined));
    expect(client.stderr).toEqual(['moor: ignoring MOOR_PROXY_POLL_MS=soon: not a number of milliseconds']);
  });
});
