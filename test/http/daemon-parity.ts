/**
 * The daemon's half of the lean-parity proof: the same scripted session run
 * against the real daemon (the built binary) once on the lean path (no tasks
 * extension declared) and once on the SDK path (the extension declared sends
 * every request there), with and without Moor-Session and Moor-Workspace,
 * every tool included — the workspace tools and the `workspace` argument
 * too. Each step's status and body bytes are recorded, so the two runs can be
 * compared step for step.
 */
import { authHeaders, TASKS } from '../tasks/daemon-helpers.js';

export interface Step {
  readonly name: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** Moor-Workspace for this step's request. */
  readonly workspace?: string;
}

export interface Recorded {
  readonly step: string;
  readonly status: number;
  readonly text: string;
}

/** Tools that run as a task when the extension is declared: compared without it only. */
export const TASK_TOOLS = new Set(['check_decisions', 'draft_decision']);

/**
 * One session's life over every tool: fresh (nothing loaded yet), reading,
 * connecting `b` (a parks), naming the parked `a`, Moor-Workspace naming a
 * connected and an unconnected folder, disconnecting, and the errors after.
 */
export function script(a: string, b: string, c: string): Step[] {
  return [
    { name: 'fresh list_workspaces', tool: 'list_workspaces', args: {} },
    { name: 'get_decision', tool: 'get_decision', args: { ref: '3' } },
    { name: 'list_workspaces after a call', tool: 'list_workspaces', args: {} },
    { name: 'search_decisions', tool: 'search_decisions', args: { query: 'storage' } },
    { name: 'get_decision_context', tool: 'get_decision_context', args: { files: ['src/db/pool.ts'] } },
    { name: 'list_superseded', tool: 'list_superseded', args: {} },
    { name: 'check_decisions', tool: 'check_decisions', args: {} },
    {
      name: 'draft_decision',
      tool: 'draft_decision',
      args: { title: 'Parity', context: 'c', decision: 'd' },
    },
    { name: 'connect_workspace b', tool: 'connect_workspace', args: { path: b } },
    { name: 'list_workspaces, b active', tool: 'list_workspaces', args: {} },
    { name: 'workspace argument names parked a', tool: 'get_decision', args: { ref: '3', workspace: a } },
    { name: 'workspace argument names a stranger', tool: 'get_decision', args: { ref: '3', workspace: c } },
    { name: 'workspace argument not a string', tool: 'get_decision', args: { ref: '3', workspace: 7 } },
    { name: 'Moor-Workspace a (connected)', tool: 'get_decision', args: { ref: '3' }, workspace: a },
    { name: 'Moor-Workspace c (not connected)', tool: 'get_decision', args: { ref: '3' }, workspace: c },
    { name: 'Moor-Workspace list_workspaces', tool: 'list_workspaces', args: {}, workspace: c },
    { name: 'disconnect_workspace b', tool: 'disconnect_workspace', args: { path: b } },
    { name: 'list_workspaces after disconnect', tool: 'list_workspaces', args: {} },
    { name: 'get_decision after disconnect', tool: 'get_decision', args: { ref: '3' } },
    { name: 'disconnect_workspace a', tool: 'disconnect_workspace', args: { path: a } },
    { name: 'list_workspaces, none', tool: 'list_workspaces', args: {} },
    { name: 'get_decision, none active', tool: 'get_decision', args: { ref: '3' } },
    { name: 'connect_workspace a again', tool: 'connect_workspace', args: { path: a } },
    { name: 'connect_workspace, relative path', tool: 'connect_workspace', args: { path: 'relative/x' } },
  ];
}

let nextId = 1;

/** One modern tools/call over HTTP; `tasks` declares the extension (which takes the SDK path). */
export async function callOverHttp(
  url: string,
  step: Step,
  options: { readonly session: string | undefined; readonly tasks: boolean },
): Promise<Recorded> {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      name: step.tool,
      arguments: step.args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'parity', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': options.tasks ? { extensions: { [TASKS]: {} } } : {},
      },
    },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...authHeaders(url),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': step.tool,
      ...(options.session === undefined ? {} : { 'moor-session': options.session }),
      ...(step.workspace === undefined ? {} : { 'moor-workspace': step.workspace }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { step: step.name, status: response.status, text: comparable(text) };
}

/** Ids differ between runs by construction, and so do the clock's readings (drop times); no other byte may. */
export function comparable(text: string): string {
  return text.replace(/"id":\d+/, '"id":0').replace(/"(at|lastUsedAt)":\d+/g, '"$1":0');
}
