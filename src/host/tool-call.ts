/**
 * tools/call, the same on every era and every hop: look the tool up, strip the
 * in-band `__` arguments, validate, run, and shape the result as one text block
 * plus structuredContent. Expected failures become `isError` results whose
 * text tells the agent what to do; only an unknown tool is a JSON-RPC error.
 */
import { type CallToolResult, ProtocolError } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { MoorError, ToolError } from '../errors.js';
import { type Binding, selectBinding } from './binding.js';
import { type Catalog, type CatalogTool, WORKSPACE_ARGUMENT } from './catalog.js';
import type { HostContext, ToolContext } from './pack.js';
import { protocolError } from './protocol-error.js';

export interface CallRequest {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
}

export interface CallEnvironment {
  readonly signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Where unexpected handler failures are reported (never stdout). */
  onInternalError(error: unknown, tool: string): void;
  /** Logging, client capabilities and change announcements; absent: logs dropped, nothing known. */
  readonly host?: HostContext;
  /** The channel for ToolContext.requestInput; absent where none exists (the tool gets a ToolError). */
  requestInput?: ToolContext<unknown>['requestInput'];
}

/**
 * Errors that carry their own answer pass through callTool untouched: a
 * JSON-RPC error for the whole call (ProtocolError), or a host signal such
 * as "input required" (marked `passThrough`).
 */
function passesThrough(error: unknown): boolean {
  return (
    error instanceof ProtocolError ||
    (typeof error === 'object' && error !== null && (error as { passThrough?: unknown }).passThrough === true)
  );
}

const noInputChannel: ToolContext<unknown>['requestInput'] = async () => {
  throw new ToolError(
    'NO_INPUT_CHANNEL',
    'This tool needs answers from you, and this connection has no way to ask: call it from a client that supports tasks, multi-round-trip input or elicitation.',
  );
};

export async function callTool(
  catalog: Catalog,
  binding: Binding,
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
  const parsed = entry.definition.input.safeParse(args);
  if (!parsed.success) return errorResult(describeInvalidArguments(request.name, parsed.error));

  let target: Binding;
  try {
    // Session-level tools (the workspace tools) run on the session, in no workspace, once it has begun.
    if (entry.pack.scope === 'session') await binding.ready?.();
    target = entry.pack.scope === 'session' ? binding : await selectBinding(binding, named);
  } catch (error) {
    if (error instanceof MoorError) return errorResult(error.message);
    throw error;
  }
  if (entry.definition.writes === true && target.writable === false) {
    return errorResult(
      new ToolError(
        'WRITES_NOT_ALLOWED',
        `${request.name} writes into the workspace, and the daemon does not allow writes in ${target.workspaceRoot}: start it with --allow-writes ${target.workspaceRoot}, or connect a workspace that allows them.`,
      ).message,
    );
  }

  const ctx: ToolContext<unknown> = {
    state: entry.pack.scope === 'session' ? undefined : target.stateOf(entry.pack),
    workspaceRoot: entry.pack.scope === 'session' ? '' : target.workspaceRoot,
    sessionKey: binding.sessionKey,
    signal: env.signal,
    progress: env.progress,
    host: env.host ?? SILENT_HOST,
    requestInput: env.requestInput ?? noInputChannel,
  };
  try {
    const output = await entry.definition.handler(parsed.data, ctx);
    if ('raw' in output) return output.raw;
    return {
      content: [{ type: 'text', text: output.text }],
      structuredContent: output.structured as Record<string, unknown>,
    };
  } catch (error) {
    if (passesThrough(error)) throw error;
    if (error instanceof MoorError) return errorResult(error.message);
    env.onInternalError(error, request.name);
    return errorResult(`The tool ${request.name} failed unexpectedly; the daemon log has the details.`);
  }
}

/** The host where nothing is wired: logs go nowhere, capabilities are unknown, announcements are dropped. */
export const SILENT_HOST: HostContext = {
  log: async () => {},
  clientCapabilities: undefined,
  listChanged: () => {},
  resourceUpdated: () => {},
};

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** `__`-prefixed arguments are hints for the host (an in-band session key, say), never tool input. */
export function withoutInBandArguments(args: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(args)) {
    if (key.startsWith('__')) {
      copy ??= { ...args };
      delete copy[key];
    }
  }
  return copy ?? args;
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

function describeInvalidArguments(tool: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
    return `${field}: ${issue.message}`;
  });
  return `Invalid arguments for ${tool}: ${problems.join('; ')}. Call tools/list for the input schema.`;
}
