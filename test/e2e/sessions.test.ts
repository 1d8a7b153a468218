/**
 * Sessions through `moor stdio` with the official SDK client, on both eras:
 * connect (the previous workspace parks), query a parked one by the
 * `workspace` argument and read its resources, evict the least recently
 * used past `--max-parked`, disconnect, and the exact error after each
 * drop; then a kill -9 of the daemon between a switch and the next call.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAll, makeState, startDaemon, waitFor } from '../daemon/harness.js';
import { connectStdio, type EraMode } from '../helpers/sdk-client.js';
import {
  expectStrangerThenEviction,
  noWorkspaceActive,
  toolText as text,
  listWorkspaces as workspaces,
} from '../helpers/session-tools.js';
import { WorkspaceCopies } from '../helpers/workspace-copies.js';

const copies = new WorkspaceCopies('moor-session-ws-');
const clients: Client[] = [];
const workspaceCopy = () => copies.copy();

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await cleanupAll();
  copies.removeAll();
});

async function proxy(mode: EraMode, stateDir: string, workspace: string): Promise<Client> {
  const client = await connectStdio(mode, ['stdio', '--workspace', workspace], { MOOR_STATE_DIR: stateDir });
  clients.push(client);
  return client;
}

describe.each(['legacy', 'modern'] as const)('sessions through moor stdio, %s', (mode) => {
  it('connects, parks, queries a parked workspace, evicts, disconnects, with the exact errors', async () => {
    const state = makeState();
    await startDaemon(state, ['--max-parked', '1']);
    const [a, b, c] = [workspaceCopy(), workspaceCopy(), workspaceCopy()];
    const client = await proxy(mode, state.dir, a);

    expect(await workspaces(client)).toEqual({ active: a, parked: [] });
    const connected = await client.callTool({ name: 'connect_workspace', arguments: { path: b } });
    expect(connected.isError).toBeUndefined();
    expect(await workspaces(client)).toEqual({ active: b, parked: [a] });

    // A parked workspace answers by name without switching.
    const parkedCall = await client.callTool({
      name: 'get_decision',
      arguments: { ref: 'ADR-0002', workspace: a },
    });
    expect(parkedCall.isError).toBeUndefined();
    expect(await workspaces(client)).toEqual({ active: b, parked: [a] });
    const parkedUri = `decision:///0003-use-sqlite-for-storage.md?workspace=${encodeURIComponent(a)}`;
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(parkedUri);
    expect(resources.map((r) => r.uri)).toContain('decision:///0003-use-sqlite-for-storage.md');
    const read = await client.readResource({ uri: parkedUri });
    expect(read.contents[0]?.uri).toBe(parkedUri);

    // One parked at most: connecting c evicts a.
    await expectStrangerThenEviction(client, { a, b, c });

    const gone = await client.callTool({ name: 'disconnect_workspace', arguments: {} });
    expect(gone.isError).toBeUndefined();
    const none = await client.callTool({ name: 'list_superseded', arguments: {} });
    expect(none.isError).toBe(true);
    expect(text(none)).toBe(noWorkspaceActive(c, b));
    // The parked one still answers by name.
    const stillParked = await client.callTool({ name: 'list_superseded', arguments: { workspace: b } });
    expect(stillParked.isError).toBeUndefined();
  });

  it('after a kill -9 between a switch and the next call, the session has the binding it had', async () => {
    const state = makeState();
    const daemon = await startDaemon(state);
    const [a, b] = [workspaceCopy(), workspaceCopy()];
    const client = await proxy(mode, state.dir, a);
    await client.callTool({ name: 'connect_workspace', arguments: { path: b } });
    process.kill(daemon.pid, 'SIGKILL');
    await waitFor('the daemon to die', async () => {
      try {
        process.kill(daemon.pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    // The proxy starts a new daemon; the store has the session's bindings.
    const after = await waitFor('the session to answer again', async () => {
      try {
        return await workspaces(client);
      } catch {
        return undefined;
      }
    });
    expect(after).toEqual({ active: b, parked: [a] });
  });
});
