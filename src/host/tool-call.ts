/**
 * tools/call, the same on every era and every hop: look the tool up, strip the
 * in-band `__` arguments, validate, run, and shape the result as one text block
 * plus structuredContent. Expected failures become `isError` results whose
 * text tells the agent what to do; only an unknown tool is a JSON-RPC error.
 */
import { type CallToolResult, ProtocolError } from '@modelcontextprotocol/server';
import { MoorError, ToolError } from '../errors.js';
import type { CallerScope, CallWorkspace } from './call-scope.js';
import { type Catalog, type CatalogTool, WORKSPACE_ARGUMENT } from './catalog.js';
import { protocolError } from './protocol-error.js';
import {
  type CallEnvironment,
  errorResult,
  isHostSignal,
  runTool,
  withoutInBandArguments,
} from './tool-run.js';

export {
  type CallEnvironment,
  errorResult,
  SILENT_HOST,
  withoutInBandArguments,
} from './tool-run.js';

export interface CallRequest {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
}

/**
 * Errors that carry their own answer pass through callTool untouched: a
 * JSON-RPC error for the whole call (ProtocolError), or a host signal such
 * as "input required" (marked `passThrough`).
 */
function passesThrough(error: unknown): boolean {
  return error instanceof ProtocolError || isHostSignal(error);
}

export async function callTool(
  catalog: Catalog,
  scope: CallerScope,
  request: CallRequest,
  env: CallEnvironment,
): Promise<CallToolResult> {
  const observer = catalog.toolCallObserver;
  if (observer === undefined) return runCatalogTool(catalog, scope, request, env);
  const started = performance.now();
  try {
    const result = await runCatalogTool(catalog, scope, request, env);
    const outcome = isAborted(env) ? 'cancelled' : result.isError === true ? 'error' : 'ok';
    observer(request.name, outcome, (performance.now() - started) / 1000);
    return result;
  } catch (error) {
    // A host signal such as "input required" is the call answering, not failing.
    const outcome = isAborted(env)
      ? 'cancelled'
      : error instanceof ProtocolError || !passesThrough(error)
        ? 'error'
        : 'ok';
    observer(request.name, outcome, (performance.now() - started) / 1000);
    throw error;
  }
}

async function runCatalogTool(
  catalog: Catalog,
  scope: CallerScope,
  request: CallRequest,
  env: CallEnvironment,
): Promise<CallToolResult> {
  const entry = catalog.tool(request.name);
  if (!entry) {
    throw protocolError(
      'UNKNOWN_TOOL',
      `Unknown tool: ${request.name}. Call tools/list for the tools this server offers.`,
      { tool: request.name },
    );
  }
  const { named, args } = splitWorkspaceArgument(entry, withoutInBandArguments(request.arguments ?? {}));
  if (named !== undefined && typeof named !== 'string')
    return errorResult(
      `Invalid arguments for ${request.name}: ${WORKSPACE_ARGUMENT}: expected the absolute path of a connected workspace. Call tools/list for the input schema.`,
    );
  let target: CallWorkspace | undefined;
  try {
    // A call is what makes a session worth keeping: ready() saves a new one. Session-level
    // tools (the workspace tools) then run on the session, in no workspace.
    await scope.ready();
    if (entry.pack.scope !== 'session') target = await scope.select(named);
  } catch (error) {
    if (error instanceof MoorError) return errorResult(error.message);
    throw error;
  }
  if (entry.definition.writes === true && target !== undefined && !target.writable) {
    return errorResult(
      new ToolError(
        'WRITES_NOT_ALLOWED',
        `${request.name} writes into the workspace, and the daemon does not allow writes in ${target.root}: start it with --allow-writes ${target.root}, or connect a workspace that allows them.`,
      ).message,
    );
  }

  return runTool(entry, { sessionKey: scope.sessionKey, workspace: target }, args, env, passesThrough);
}

/** The host's `workspace` argument, taken out of a tool's arguments when the catalog added it. */
function splitWorkspaceArgument(
  entry: CatalogTool,
  args: Record<string, unknown>,
): { named: unknown; args: Record<string, unknown> } {
  if (!entry.takesWorkspace || !(WORKSPACE_ARGUMENT in args)) return { named: undefined, args };
  const { [WORKSPACE_ARGUMENT]: named, ...rest } = args;
  return { named, args: rest };
}

function isAborted(env: CallEnvironment): boolean {
  return env.aborted?.() ?? env.signal.aborted;
}
