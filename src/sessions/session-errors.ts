/**
 * What a tool call hears when the session cannot give it a workspace. The
 * message is built from the session's last drop, because "no workspace" is
 * useless on its own: the agent needs to know whether it switched away (the
 * old one is parked), disconnected on purpose, lost one to the parked bound,
 * or lost one whose folder is gone, and what to call next.
 */
import { ToolError } from '../errors.js';
import type { SessionDrop, SessionRecord } from '../store/session-store.js';
import { allBindings } from './bindings.js';

/** Why `drop.root` is no longer usable, as one sentence with the next step. */
export function describeDrop(drop: SessionDrop, maxParked: number): string {
  const root = drop.root;
  switch (drop.reason) {
    case 'switched':
      return `you switched from ${root}; it is parked. Call connect_workspace with path "${root}" to make it active again, or name it in the tool's workspace argument.`;
    case 'disconnected':
      return `${root} was disconnected. Call connect_workspace with the path of the workspace to work in.`;
    case 'evicted':
      return `${root} was evicted: more than ${maxParked} parked. Call connect_workspace with path "${root}" to load it again.`;
    case 'unavailable':
      return `${root} is no longer available: its folder is gone. Call connect_workspace with the path of an existing workspace.`;
  }
}

function connectedList(record: SessionRecord): string {
  const roots = allBindings(record).map((b) => b.root);
  return roots.length === 0 ? 'This session has no connected workspaces.' : `Connected: ${roots.join(', ')}.`;
}

export function noActiveWorkspace(record: SessionRecord, maxParked: number): ToolError {
  const why =
    record.lastDrop === null
      ? 'this session has not connected one. Call connect_workspace with the absolute path of the workspace to work in.'
      : describeDrop(record.lastDrop, maxParked);
  const parked = record.parked.length === 0 ? '' : ` Parked: ${record.parked.map((b) => b.root).join(', ')}.`;
  return new ToolError('NO_ACTIVE_WORKSPACE', `No workspace is active: ${why}${parked}`, {
    lastDrop: record.lastDrop,
  });
}

export function workspaceNotConnected(record: SessionRecord, named: string, maxParked: number): ToolError {
  const drop = record.lastDrop;
  const why =
    drop !== null && drop.root === named
      ? describeDrop(drop, maxParked)
      : `it is not connected to this session. Call connect_workspace with path "${named}" first.`;
  return new ToolError('WORKSPACE_NOT_CONNECTED', `Workspace ${named}: ${why} ${connectedList(record)}`, {
    workspace: named,
    connected: allBindings(record).map((b) => b.root),
  });
}

export function workspaceUnavailable(root: string, maxParked: number): ToolError {
  const drop: SessionDrop = { reason: 'unavailable', root, decisions: null, at: 0 };
  return new ToolError('WORKSPACE_UNAVAILABLE', `Workspace ${describeDrop(drop, maxParked)}`, {
    workspace: root,
  });
}

export function connectSuperseded(root: string): ToolError {
  return new ToolError(
    'CONNECT_SUPERSEDED',
    `The connect to ${root} was overtaken by a newer connect or disconnect of this session and was not made. Call list_workspaces to see what is active.`,
    { workspace: root },
  );
}

export function sessionRequired(tool: string): ToolError {
  return new ToolError(
    'SESSION_REQUIRED',
    `${tool} keeps per-session workspaces, and this request carries no session key: connect through moor's proxy, or send a Moor-Session header.`,
  );
}
