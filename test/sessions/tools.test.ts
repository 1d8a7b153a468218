/**
 * The host workspace tools through callTool: the session key reaches the
 * manager, results carry structured content and their text rendering,
 * expected failures are isError results with the manager's message.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../src/host/call-scope.js';
import { Catalog } from '../../src/host/catalog.js';
import { erasePack } from '../../src/host/pack.js';
import { callTool } from '../../src/host/tool-call.js';
import { createWorkspaceToolsPack } from '../../src/sessions/tools.js';
import { cleanupDirs, harness, makeDirs } from './helpers.js';

afterEach(cleanupDirs);

function setup() {
  const h = harness();
  const catalog = new Catalog([erasePack(createWorkspaceToolsPack(h.manager))], 'P');
  const errors: unknown[] = [];
  const env = {
    signal: new AbortController().signal,
    progress: async () => {},
    onInternalError: (error: unknown) => errors.push(error),
  };
  const call = (name: string, args: Record<string, unknown> = {}, sessionKey: string | null = 's1') =>
    callTool(catalog, new Workspace('/').scope(sessionKey ?? undefined), { name, arguments: args }, env);
  return { ...h, catalog, call, errors };
}

describe('workspace tools', () => {
  it('are listed with their annotations and output schemas', () => {
    const { catalog } = setup();
    expect(catalog.tools.map((t) => [t.name, t.annotations])).toEqual([
      [
        'connect_workspace',
        { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ],
      [
        'disconnect_workspace',
        { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ],
      [
        'list_workspaces',
        { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      ],
    ]);
    expect(catalog.tools[0]?.inputSchema.required).toEqual(['path']);
    expect(catalog.tools.every((t) => t.outputSchema !== undefined)).toBe(true);
  });

  it('connect_workspace connects the calling session and renders the binding', async () => {
    const d = makeDirs('a', 'b');
    const { call, manager } = setup();
    const first = await call('connect_workspace', { path: d.a });
    expect(first.isError).toBeUndefined();
    expect(first.structuredContent).toEqual({
      root: d.a,
      decisions: null,
      generation: 1,
      decisionCount: 3,
      problems: 0,
    });
    expect(first.content).toEqual([
      { type: 'text', text: `Connected. Active: ${d.a}: 3 decisions, 0 problems` },
    ]);
    await call('connect_workspace', { path: d.b });
    expect((await manager.list('s1')).parked.map((p) => p.root)).toEqual([d.a]);
    expect((await manager.list('other')).active).toBeNull();
  });

  it('list_workspaces shows active, parked and the last drop', async () => {
    const d = makeDirs('a', 'b');
    const { call } = setup();
    await call('connect_workspace', { path: d.a });
    await call('connect_workspace', { path: d.b });
    const result = await call('list_workspaces');
    expect(result.structuredContent).toMatchObject({
      active: { root: d.b },
      parked: [{ root: d.a }],
      lastDrop: { reason: 'switched', root: d.a, rejoinTarget: d.a },
    });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: `Active: ${d.b}: 3 decisions, 0 problems\nParked: ${d.a}: 3 decisions, 0 problems\nLast dropped: ${d.a} (switched)`,
      },
    ]);
  });

  it('disconnect_workspace ends the active or a named binding', async () => {
    const d = makeDirs('a', 'b');
    const { call } = setup();
    await call('connect_workspace', { path: d.a });
    await call('connect_workspace', { path: d.b });
    const parked = await call('disconnect_workspace', { path: d.a });
    expect(parked.structuredContent).toMatchObject({ disconnected: { root: d.a }, active: { root: d.b } });
    const active = await call('disconnect_workspace');
    expect(active.structuredContent).toMatchObject({ disconnected: { root: d.b }, active: null });
    expect(active.content).toEqual([
      { type: 'text', text: `Disconnected ${d.b}. No workspace is active now.` },
    ]);
    const again = await call('disconnect_workspace');
    expect(again.isError).toBe(true);
    expect(again.content).toEqual([
      {
        type: 'text',
        text: `No workspace is active: ${d.b} was disconnected. Call connect_workspace with the path of the workspace to work in.`,
      },
    ]);
  });

  it('expected failures are isError results that say why', async () => {
    const { call, errors } = setup();
    const relative = await call('connect_workspace', { path: 'some/dir' });
    expect(relative).toEqual({
      isError: true,
      content: [
        { type: 'text', text: "path some/dir is not an absolute path: give the directory's full path." },
      ],
    });
    const keyless = await call('list_workspaces', {}, null);
    expect(keyless.isError).toBe(true);
    expect(keyless.content).toEqual([
      {
        type: 'text',
        text: "list_workspaces keeps per-session workspaces, and this request carries no session key: connect through moor's proxy, or send a Moor-Session header.",
      },
    ]);
    expect(errors).toEqual([]);
  });
});
