/**
 * A one-shot `moor decisions …` command asking a running daemon instead of
 * loading the corpus itself: a control hello 'one-shot' names the workspace,
 * its decisions folder and one read-only decisions tool with its arguments;
 * the reply carries the tool's result as the tool gave it. The daemon's
 * corpus is already loaded, so the answer costs a socket round trip.
 */

/** The tools a one-shot command may ask for: the decisions pack's read-only ones. */
export const ONE_SHOT_TOOLS = [
  'search_decisions',
  'get_decision',
  'get_decision_context',
  'list_superseded',
  'check_decisions',
] as const;

export type OneShotTool = (typeof ONE_SHOT_TOOLS)[number];

export interface OneShotRequest {
  /** The asker's build stamp (build-stamp.ts): a daemon of another build does not answer. */
  readonly build: string;
  /** Absolute path: the workspace root the command resolved. */
  readonly workspace: string;
  /** Absolute path: the command's --decisions folder, when given. */
  readonly decisions?: string;
  readonly tool: OneShotTool;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** The tool's result (a CallToolResult), or why the daemon did not run it. */
export interface OneShotReply {
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: { readonly code: string; readonly message: string };
}

/** Checks a hello's `oneShot` field; the arguments are the tool's to check, as on any call. */
export function parseOneShotRequest(value: unknown): OneShotRequest | { readonly error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'oneShot must be an object' };
  const request = value as Record<string, unknown>;
  if (typeof request.build !== 'string' || request.build.length === 0 || request.build.length > 8192)
    return { error: 'oneShot.build must be the asking build stamp' };
  if (typeof request.workspace !== 'string' || !request.workspace.startsWith('/'))
    return { error: 'oneShot.workspace must be an absolute path' };
  if (
    request.decisions !== undefined &&
    (typeof request.decisions !== 'string' || !request.decisions.startsWith('/'))
  )
    return { error: 'oneShot.decisions must be an absolute path' };
  if (!ONE_SHOT_TOOLS.includes(request.tool as OneShotTool))
    return { error: `oneShot.tool must be one of ${ONE_SHOT_TOOLS.join(', ')}` };
  const args = request.arguments;
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { error: 'oneShot.arguments must be an object' };
  return {
    build: request.build,
    workspace: request.workspace,
    ...(typeof request.decisions === 'string' ? { decisions: request.decisions } : {}),
    tool: request.tool as OneShotTool,
    arguments: args as Record<string, unknown>,
  };
}
