/**
 * Reading the session tools' answers in e2e tests, whatever the transport:
 * a result's text, the session's workspaces, and the walk past a stranger
 * workspace to an eviction that every transport must word the same way.
 */
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

export type ToolResult = Awaited<ReturnType<Client['callTool']>>;

export function toolText(result: ToolResult): string {
  const [first] = result.content as Array<{ type: string; text: string }>;
  return first?.text ?? '';
}

/** list_workspaces as roots: the active one (or null) and the parked ones in order. */
export async function listWorkspaces(client: Client, meta?: Record<string, unknown>) {
  const result = await client.callTool({
    name: 'list_workspaces',
    arguments: {},
    ...(meta ? { _meta: meta } : {}),
  });
  expect(result.isError, toolText(result)).toBeFalsy();
  const list = result.structuredContent as {
    active: { root: string } | null;
    parked: Array<{ root: string }>;
  };
  return { active: list.active?.root ?? null, parked: list.parked.map((p) => p.root) };
}

/**
 * With `b` active and `a` parked under `--max-parked 1`: a workspace never
 * connected is refused by name, and connecting `c` evicts `a`, the least
 * recently used, with the exact errors.
 */
export async function expectStrangerThenEviction(
  client: Client,
  { a, b, c }: { readonly a: string; readonly b: string; readonly c: string },
): Promise<void> {
  const stranger = await client.callTool({
    name: 'list_superseded',
    arguments: { workspace: '/nowhere/at/all' },
  });
  expect(stranger.isError).toBe(true);
  expect(toolText(stranger)).toBe(
    'Workspace /nowhere/at/all: it is not connected to this session. Call connect_workspace with path "/nowhere/at/all" first. ' +
      `Connected: ${b}, ${a}.`,
  );

  await client.callTool({ name: 'connect_workspace', arguments: { path: c } });
  expect(await listWorkspaces(client)).toEqual({ active: c, parked: [b] });
  const evicted = await client.callTool({ name: 'list_superseded', arguments: { workspace: a } });
  expect(evicted.isError).toBe(true);
  expect(toolText(evicted)).toBe(
    `Workspace ${a}: ${a} was evicted: more than 1 parked. Call connect_workspace with path "${a}" to load it again. Connected: ${c}, ${b}.`,
  );
}

/** After the active workspace `c` is disconnected: the exact error a call without `workspace` gets. */
export function noWorkspaceActive(c: string, b: string): string {
  return `No workspace is active: ${c} was disconnected. Call connect_workspace with the path of the workspace to work in. Parked: ${b}.`;
}
