/**
 * Per-session tool lists through the built daemon with the official SDK
 * client: with `--allow-writes W`, draft_decision is listed while a
 * session's active workspace is W. Switching session A to a read-only
 * workspace tells A, and only A, that its tool list changed: over
 * `moor stdio` (legacy) as one `notifications/tools/list_changed`, and over
 * HTTP listen streams (2026-07-28) on A's stream alone, ahead of a later
 * room event both streams hear (what proves B's stream got nothing before).
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

const TOOLS_CHANGED = 'notifications/tools/list_changed';
const RESOURCES_CHANGED = 'notifications/resources/list_changed';
const copies = new WorkspaceCopies('moor-tools-changed-');
const clients = httpSuite(() => copies.removeAll());
let state: string;
let daemon: Daemon;
let writable: string;
let readOnly: string;

beforeAll(async () => {
  writable = copies.copy();
  readOnly = copies.copy();
  state = tempState('moor-tools-changed-');
  daemon = await startDaemon(state, ['-w', writable, '--allow-writes', writable]);
}, 20_000);

function record(client: Client): string[] {
  const seen: string[] = [];
  for (const method of [TOOLS_CHANGED, RESOURCES_CHANGED] as const)
    client.setNotificationHandler(method, () => {
      seen.push(method);
    });
  return seen;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name);
}

describe('a switch tells only its own session that its tools changed', () => {
  it('legacy, through moor stdio: one tools/list_changed for A, none for B', async () => {
    const env = { MOOR_STATE_DIR: state, MOOR_PROXY_POLL_MS: '0' };
    const a = await connectStdio('legacy', ['stdio', '--workspace', writable], env);
    const b = await connectStdio('legacy', ['stdio', '--workspace', writable], env);
    clients.push(a, b);
    const seenA = record(a);
    const seenB = record(b);
    expect(await toolNames(a)).toContain('draft_decision');
    expect(await toolNames(b)).toContain('draft_decision');

    await a.callTool({ name: 'connect_workspace', arguments: { path: readOnly } });
    await until(() => seenA.length > 0, 10_000);
    expect(await toolNames(a)).not.toContain('draft_decision');
    expect(await toolNames(b)).toContain('draft_decision');

    // B's own switch is the first change B hears; A hears nothing of it.
    await b.callTool({ name: 'connect_workspace', arguments: { path: readOnly } });
    await until(() => seenB.length > 0, 10_000);
    // And A switching back is A's second: nothing came between.
    await a.callTool({ name: 'connect_workspace', arguments: { path: writable } });
    await until(() => seenA.length > 1, 10_000);
    expect(seenA).toEqual([TOOLS_CHANGED, TOOLS_CHANGED]);
    expect(seenB).toEqual([TOOLS_CHANGED]);
    expect(await toolNames(a)).toContain('draft_decision');
  }, 30_000);

  it('modern, over HTTP listen streams: on A’s stream, not on B’s', async () => {
    const http = async (session: string) => {
      const client = await connectHttp('modern', daemon.url, {
        ...authHeaders(daemon.url),
        'moor-session': session,
      });
      clients.push(client);
      // A first call begins the session in the daemon default (the writable workspace) and loads its room.
      expect((await client.callTool({ name: 'list_superseded', arguments: {} })).isError).toBeFalsy();
      return client;
    };
    const a = await http('tools-changed-a-0123456789');
    const b = await http('tools-changed-b-0123456789');
    const seenA = record(a);
    const seenB = record(b);
    expect(await toolNames(a)).toContain('draft_decision');
    const listenA = await a.listen({ toolsListChanged: true, resourcesListChanged: true });
    const listenB = await b.listen({ toolsListChanged: true, resourcesListChanged: true });
    expect(listenA.honoredFilter).toEqual({ toolsListChanged: true, resourcesListChanged: true });

    await a.callTool({ name: 'connect_workspace', arguments: { path: readOnly } });
    // A room event both streams hear, after the switch: each stream's notifications arrive in order.
    fs.writeFileSync(
      path.join(writable, 'docs/decisions/0099-later.md'),
      '# Later\n\n## Status\n\nAccepted\n\n## Context\n\nafter the switch\n',
    );
    await until(() => seenA.includes(RESOURCES_CHANGED) && seenB.includes(RESOURCES_CHANGED), 10_000);
    expect(seenA).toEqual([TOOLS_CHANGED, RESOURCES_CHANGED]);
    expect(seenB).toEqual([RESOURCES_CHANGED]);
    expect(await toolNames(a)).not.toContain('draft_decision');
    expect(await toolNames(b)).toContain('draft_decision');
    await listenA.close();
    await listenB.close();
  }, 30_000);
});
