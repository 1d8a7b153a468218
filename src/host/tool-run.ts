/**
 * Running one tool definition: strip the in-band `__` arguments, validate,
 * run, and shape the result as one text block plus structuredContent.
 * Expected failures become `isError` results whose text tells the agent what
 * to do. No SDK at run time, so the CLI's one-shot commands can call a
 * handler without loading the server (tool-call.ts adds the catalog lookup
 * and the SDK's ProtocolError for the served paths; here the SDK is
 * imported only when a call must fail as a whole).
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { isMoorError, MoorError, ToolError } from '../errors.js';
import type { CallWorkspace } from './call-scope.js';
import type { HostContext, Pack, ToolContext, ToolDefinition } from './pack.js';
import type { ResultMemo } from './result-memo.js';

export interface CallEnvironment {
  readonly signal: AbortSignal;
  /** Whether the call was aborted, where that can be known without making `signal` (default: its `aborted`). */
  aborted?(): boolean;
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Where unexpected handler failures are reported (never stdout). */
  onInternalError(error: unknown, tool: string): void;
  /** Logging, client capabilities and change announcements; absent: logs dropped, nothing known. */
  readonly host?: HostContext;
  /** The channel for ToolContext.requestInput; absent where none exists (the tool gets a ToolError). */
  requestInput?: ToolContext<unknown>['requestInput'];
  /** Answers pure tools from their last answers (the results are shared: only a path that never alters them passes one). */
  readonly memo?: ResultMemo;
}

/** A tool and the pack whose state it runs against. */
export interface ToolEntry {
  readonly pack: Pack<unknown>;
  readonly definition: ToolDefinition<unknown>;
}

/** A host signal such as "input required" carries its own answer: it is marked `passThrough`. */
export function isHostSignal(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { passThrough?: unknown }).passThrough === true
  );
}

const noInputChannel: ToolContext<unknown>['requestInput'] = async () => {
  throw new ToolError(
    'NO_INPUT_CHANNEL',
    'This tool needs answers from you, and this connection has no way to ask: call it from a client that supports tasks, multi-round-trip input or elicitation.',
  );
};

/** Who a tool runs for, and in which workspace (none for session-level tools). */
export interface ToolTarget {
  readonly sessionKey: string | undefined;
  readonly workspace: CallWorkspace | undefined;
}

/**
 * Runs `entry` with `args`. Errors for which `passesThrough` holds are
 * rethrown untouched; a MoorError becomes an `isError` result; anything else
 * is reported to `env.onInternalError` and answered with a generic failure.
 */
export async function runTool(
  entry: ToolEntry,
  target: ToolTarget,
  args: Record<string, unknown>,
  env: CallEnvironment,
  passesThrough: (error: unknown) => boolean = isHostSignal,
): Promise<CallToolResult> {
  const name = entry.definition.name;
  const toolArgs = withoutInBandArguments(args);
  // Arguments the tool's quick check vouches for skip building and running its schema.
  const accepted = entry.definition.accept?.(toolArgs);
  const parsed =
    accepted !== undefined
      ? { success: true as const, data: accepted }
      : entry.definition.input.safeParse(toolArgs);
  if (!parsed.success) return errorResult(describeInvalidArguments(name, parsed.error));

  // Session-level tools (the workspace tools) run on the session, in no workspace.
  const workspace = entry.pack.scope === 'session' ? undefined : target.workspace;
  const state = workspace?.stateOf(entry.pack);
  const memo = memoSlot(env.memo, entry, state, parsed.data);
  const remembered = memo?.get();
  if (remembered !== undefined) return remembered;
  const ctx: ToolContext<unknown> = {
    state,
    workspaceRoot: workspace?.root ?? '',
    sessionKey: target.sessionKey,
    get signal() {
      return env.signal;
    },
    progress: env.progress,
    host: env.host ?? SILENT_HOST,
    requestInput: env.requestInput ?? noInputChannel,
  };
  try {
    const output = await entry.definition.handler(parsed.data, ctx);
    if ('raw' in output) return output.raw;
    const result: CallToolResult = {
      content: [{ type: 'text', text: output.text }],
      structuredContent: output.structured as Record<string, unknown>,
    };
    memo?.put(result);
    return result;
  } catch (error) {
    if (passesThrough(error)) throw error;
    // The store unreachable is no answer of the tool: the whole call fails retryably, nothing done.
    if (isMoorError(error) && error.code === 'STORE_UNAVAILABLE') throw await wholeCallFailure(error);
    if (error instanceof MoorError) return errorResult(error.message);
    env.onInternalError(error, name);
    return errorResult(`The tool ${name} failed unexpectedly; the daemon log has the details.`);
  }
}

/**
 * The SDK's ProtocolError for a registry error (what protocol-error.ts makes),
 * loaded only on this path and as the package itself: a one-shot CLI command
 * never pays for the SDK, and its bundle, which leaves the package out, reads
 * it from node_modules only if this ever runs there.
 */
async function wholeCallFailure(error: MoorError): Promise<Error> {
  const { ProtocolError } = await import('@modelcontextprotocol/server');
  const { code, message, data } = error.toJsonRpc();
  return new ProtocolError(code, message, data);
}

/** Where a pure tool's answer for these arguments at the state's current version is kept, if anywhere. */
function memoSlot(
  memo: ResultMemo | undefined,
  entry: ToolEntry,
  state: unknown,
  args: unknown,
): { get(): CallToolResult | undefined; put(result: CallToolResult): void } | undefined {
  if (memo === undefined || entry.definition.pure !== true || typeof state !== 'object' || state === null)
    return undefined;
  const version = entry.pack.version?.(state);
  const key = memo.keyOf(entry.definition.name, args as Record<string, unknown>);
  if (version === undefined || key === undefined) return undefined;
  return {
    get: () => memo.get(state, version, key),
    put: (result) => memo.put(state, version, key, result),
  };
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

function describeInvalidArguments(tool: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
    return `${field}: ${issue.message}`;
  });
  return `Invalid arguments for ${tool}: ${problems.join('; ')}. Call tools/list for the input schema.`;
}
