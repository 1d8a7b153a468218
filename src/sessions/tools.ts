/**
 * The host-level workspace tools, served beside every pack: connect_workspace,
 * list_workspaces, disconnect_workspace. They act on the caller's session
 * (ToolContext.sessionKey) through the SessionManager, so the pack's state is
 * unused; a keyless request gets SESSION_REQUIRED.
 */
import { z } from 'zod';
import { definePack, defineTool, type Pack, type ToolContext } from '../host/pack.js';
import type { WorkspaceBinding } from './bindings.js';
import type { SessionManager, WorkspaceList } from './manager.js';
import { sessionRequired } from './session-errors.js';

const bindingSchema = z.object({
  root: z.string().describe('Absolute workspace root.'),
  decisions: z.string().nullable().describe('The decision folder the session named, or null.'),
  generation: z.number().int().describe('Which activation of the session this binding is.'),
  decisionCount: z.number().int().nullable().describe('Decisions in the workspace; null until it is loaded.'),
  problems: z.number().int().nullable().describe('Problems found in the corpus; null until it is loaded.'),
});

const dropSchema = z.object({
  reason: z.enum(['switched', 'disconnected', 'evicted', 'unavailable']),
  root: z.string(),
  decisions: z.string().nullable(),
  at: z.number().describe('Epoch milliseconds.'),
  rejoinTarget: z.string().optional().describe('The path to connect to get it back, when that works.'),
});

const listSchema = z.object({
  active: bindingSchema.nullable(),
  parked: z.array(bindingSchema).describe('Most recently used first.'),
  lastDrop: dropSchema.nullable(),
});

const connectInput = z.object({
  path: z.string().min(1).describe('Absolute path of the workspace root.'),
  decisions: z.string().optional().describe('Decision folder, absolute or relative to the root.'),
});

const disconnectInput = z.object({
  path: z.string().min(1).optional().describe('A connected workspace to end; default the active one.'),
});

const emptyInput = z.object({});

const disconnectOutput = z.object({ disconnected: bindingSchema, active: bindingSchema.nullable() });

function describeBinding(b: WorkspaceBinding): string {
  const where = b.decisions === null ? b.root : `${b.root} (decisions in ${b.decisions})`;
  if (b.decisionCount === null) return `${where}, not loaded yet`;
  return `${where}: ${b.decisionCount} decisions, ${b.problems ?? 0} problems`;
}

export function renderList(list: WorkspaceList): string {
  const lines = [
    list.active === null ? 'No workspace is active.' : `Active: ${describeBinding(list.active)}`,
  ];
  for (const parked of list.parked) lines.push(`Parked: ${describeBinding(parked)}`);
  if (list.lastDrop !== null) lines.push(`Last dropped: ${list.lastDrop.root} (${list.lastDrop.reason})`);
  return lines.join('\n');
}

function keyOf(tool: string, ctx: ToolContext<unknown>): string {
  if (ctx.sessionKey === undefined) throw sessionRequired(tool);
  return ctx.sessionKey;
}

export function createWorkspaceToolsPack<H extends { release(): void }>(
  manager: SessionManager<H>,
): Pack<null> {
  const connect = defineTool<null, typeof connectInput, typeof bindingSchema>({
    name: 'connect_workspace',
    title: 'Connect a workspace',
    description:
      'Makes a workspace (an absolute path to a repository folder) this session’s active one; the previously active one is parked and stays connected. Other tools run in the active workspace unless their workspace argument names another connected one.',
    input: connectInput,
    output: bindingSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (args, ctx) => {
      const binding = await manager.connect(keyOf('connect_workspace', ctx), {
        root: args.path,
        decisions: args.decisions,
      });
      return { structured: binding, text: `Connected. Active: ${describeBinding(binding)}` };
    },
  });

  const list = defineTool<null, typeof emptyInput, typeof listSchema>({
    name: 'list_workspaces',
    title: 'List connected workspaces',
    description:
      'Shows this session’s active workspace, its parked ones (most recently used first) and the last one it lost, with why.',
    input: emptyInput,
    output: listSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (_args, ctx) => {
      const workspaces = await manager.list(keyOf('list_workspaces', ctx));
      return { structured: { ...workspaces, parked: [...workspaces.parked] }, text: renderList(workspaces) };
    },
  });

  const disconnect = defineTool<null, typeof disconnectInput, typeof disconnectOutput>({
    name: 'disconnect_workspace',
    title: 'Disconnect a workspace',
    description:
      'Ends a binding of this session: without a path the active workspace (no other becomes active), with a path that connected workspace. The workspace’s files are untouched.',
    input: disconnectInput,
    output: disconnectOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async (args, ctx) => {
      const out = await manager.disconnect(keyOf('disconnect_workspace', ctx), args.path);
      const after = out.active === null ? 'No workspace is active now.' : `Active: ${out.active.root}`;
      return { structured: out, text: `Disconnected ${out.disconnected.root}. ${after}` };
    },
  });

  return definePack<null>({
    name: 'workspaces',
    scope: 'session',
    instructions:
      'Workspaces: call connect_workspace with a repository’s absolute path to work in it; list_workspaces shows what this session is connected to.',
    tools: [connect, list, disconnect],
    resources: [],
    open: () => null,
  });
}
