/**
 * The per-connection / per-request server factory. Everything expensive lives
 * in the Catalog (built once); each call here makes one low-level SDK Server
 * and binds the prebuilt handlers to a CallerScope. We use the low-level Server
 * rather than McpServer so that tools/list order, result shapes and the cost
 * of an instance are ours to control.
 */
import {
  type CallToolRequest,
  type CallToolResult,
  type McpRequestContext,
  type McpServerFactory,
  type Result,
  Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MoorError } from '../errors.js';
import { type ClientNamed, clientNamedBy } from '../protocol/client-named.js';
import { CALLER_CATALOG_CACHE_HINT, CATALOG_CACHE_HINT, CORPUS_CACHE_HINT } from '../protocol/constants.js';
import { traceIdOf } from '../protocol/trace.js';
import { runWithTrace } from '../protocol/trace-scope.js';
import type { CallerScope } from './call-scope.js';
import type { Catalog } from './catalog.js';
import { installCompletions } from './completions.js';
import { hostContext } from './host-context.js';
import { InputRequiredSignal, type InputStateCodec, inputChannel, processInputStateCodec } from './input.js';
import { asInvalidParams } from './invalid-params.js';
import { installPrompts } from './prompts.js';
import { toProtocolError } from './protocol-error.js';
import { listResources, openResourceStates, readResource } from './resources.js';
import { installSkills, SKILLS_EXTENSION_ID } from './skills.js';
import { followEvents, installLegacySubscriptions } from './subscriptions.js';
import { callTool } from './tool-call.js';

export type { ClientNamed };

export interface ServerIdentity {
  readonly name: string;
  readonly title: string;
  readonly version: string;
}

export interface FactoryOptions {
  readonly identity: ServerIdentity;
  /** Which scope this connection or request runs against. */
  scopeFor(ctx: McpRequestContext): CallerScope;
  onInternalError(error: unknown, tool: string): void;
  /** Protocol extensions layered on the host (e.g. durable tasks). */
  readonly extensions?: readonly HostExtension[];
  /** Seals input rounds; default: the process's own key (a cluster passes the key its daemons share). */
  readonly inputState?: InputStateCodec | undefined;
  /** Told the client a request names (2025 initialize's clientInfo, 2026-07-28 envelope client info). */
  onClient?(scope: CallerScope, client: ClientNamed): void;
}

/** What an extension sees of one tools/call before the plain path runs it. */
export interface InterceptedToolCall {
  readonly request: CallToolRequest;
  readonly ctx: ServerContext;
  readonly scope: CallerScope;
  /** The instance serving the call (its 2025 initialize capabilities, for one). */
  readonly server: Server;
  /** Runs the call the ordinary way (validation, handler, result shaping). */
  runPlain(): Promise<CallToolResult>;
  /** Seals the call's input rounds (what this server verifies a retry with). */
  readonly inputState: InputStateCodec;
}

/**
 * A seam for protocol extensions: capabilities to advertise, handlers to add
 * to each instance, and a chance to take over a tools/call (a task-augmented
 * call returns a CreateTaskResult instead of running synchronously).
 */
export interface HostExtension {
  readonly capabilities?: ServerCapabilities;
  install?(server: Server, scope: CallerScope, ctx: McpRequestContext): void;
  /** Returns a result to answer the call itself, or undefined to let it run normally. */
  interceptToolCall?(call: InterceptedToolCall): Promise<Result | undefined>;
}

const CACHE_HINTS = {
  'server/discover': CATALOG_CACHE_HINT,
  'tools/list': CATALOG_CACHE_HINT,
  'prompts/list': CATALOG_CACHE_HINT,
  'resources/templates/list': CATALOG_CACHE_HINT,
  'resources/list': CORPUS_CACHE_HINT,
  'resources/read': CORPUS_CACHE_HINT,
} as const;

/** The hints where tools/list varies by caller (the catalog has write tools): it is private. */
const CALLER_CACHE_HINTS = {
  'server/discover': CATALOG_CACHE_HINT,
  'tools/list': CALLER_CATALOG_CACHE_HINT,
  'prompts/list': CATALOG_CACHE_HINT,
  'resources/templates/list': CATALOG_CACHE_HINT,
  'resources/list': CORPUS_CACHE_HINT,
  'resources/read': CORPUS_CACHE_HINT,
} as const;

export function createServerFactory(catalog: Catalog, options: FactoryOptions): McpServerFactory {
  const extensions = options.extensions ?? [];
  const inputState = options.inputState ?? processInputStateCodec();
  const hasPrompts = catalog.prompts.length > 0;
  const capabilities: ServerCapabilities = {
    tools: { listChanged: true },
    resources: { listChanged: true, subscribe: true },
    ...(hasPrompts ? { prompts: { listChanged: true } } : {}),
    ...(hasPrompts || catalog.resourceTemplates.length > 0 ? { completions: {} } : {}),
    logging: {},
    ...(catalog.skills.size > 0 ? { extensions: { [SKILLS_EXTENSION_ID]: {} } } : {}),
  };
  const serverOptions = {
    capabilities,
    instructions: catalog.instructions,
    cacheHints: catalog.writeToolNames.length > 0 ? CALLER_CACHE_HINTS : CACHE_HINTS,
    requestState: { verify: inputState.verify },
  };
  for (const extension of extensions) mergeCapabilities(capabilities, extension.capabilities);
  const statelessOptions = { ...serverOptions, capabilities: undeliverableDropped(capabilities) };
  const interceptors = extensions.filter((e) => e.interceptToolCall !== undefined);
  const toolsList = { tools: catalog.tools };
  const readOnlyList = { tools: catalog.readOnlyTools };
  const templatesList = { resourceTemplates: catalog.resourceTemplates };

  return (ctx) => {
    const scope = options.scopeFor(ctx);
    // A 2025 instance serving one HTTP POST dies with it: nothing unsolicited can reach its client.
    const stateless = ctx.era === 'legacy' && ctx.requestInfo !== undefined;
    const server = new HostServer(
      { name: options.identity.name, title: options.identity.title, version: options.identity.version },
      stateless ? statelessOptions : serverOptions,
    );
    const onClient = options.onClient;
    if (onClient !== undefined) server.clientSeen = (client) => onClient(scope, client);
    server.setRequestHandler('tools/list', async () =>
      (await scope.writesListed()) ? toolsList : readOnlyList,
    );
    server.setRequestHandler('tools/call', async (request, reqCtx) => {
      const runPlain = () => plainCall(request, reqCtx);
      for (const extension of interceptors) {
        const taken = await extension.interceptToolCall?.({
          request,
          ctx: reqCtx,
          scope,
          server,
          runPlain,
          inputState,
        });
        if (taken !== undefined) return taken as CallToolResult;
      }
      return runPlain();
    });
    const plainCall = async (request: CallToolRequest, reqCtx: ServerContext): Promise<CallToolResult> => {
      const progressToken = reqCtx.mcpReq._meta?.progressToken;
      const channel = inputChannel(reqCtx, `tools/call:${request.params.name}`, inputState);
      return callTool(catalog, scope, request.params, {
        signal: reqCtx.mcpReq.signal,
        onInternalError: options.onInternalError,
        host: hostContext(server, reqCtx, catalog.events, scope),
        requestInput: channel.requestInput,
        progress: async (progress, total, message) => {
          if (progressToken === undefined) return;
          await reqCtx.mcpReq.notify({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message ? { message } : {}),
            },
          });
        },
      }).catch(async (error: unknown) => {
        // input_required crosses the SDK's seam like a result (its legacy shim asks a 2025 client in place).
        if (error instanceof InputRequiredSignal)
          return (await channel.inputRequired(error)) as unknown as CallToolResult;
        throw error;
      });
    };
    server.setRequestHandler('resources/list', (request) =>
      listResources(catalog, scope, request.params?.cursor),
    );
    server.setRequestHandler('resources/templates/list', () => templatesList);
    server.setRequestHandler('resources/read', (request) => readResource(catalog, scope, request.params.uri));
    if (hasPrompts) installPrompts(server, catalog, scope, inputState);
    if (capabilities.completions) installCompletions(server, catalog);
    if (catalog.skills.size > 0)
      installSkills(server, catalog.skills, ctx.era === 'legacy' ? undefined : CATALOG_CACHE_HINT);
    const subscribed = new Set<string>();
    if (ctx.era === 'legacy')
      installLegacySubscriptions(server, subscribed, () => openResourceStates(catalog, scope));
    // 2025 connections (stdio, socket) follow their rooms; listen streams subscribe themselves.
    if (ctx.requestInfo === undefined) {
      followEvents(server, ctx, catalog.events, scope, subscribed);
      followToolChanges(server, scope);
    }
    for (const extension of extensions) extension.install?.(server, scope, ctx);
    return server;
  };
}

/** A connection hears when its own session's tool list changed (a switch to or from a write-allowed workspace). */
function followToolChanges(server: Server, scope: CallerScope): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const unsubscribe = scope.onToolsChanged(() => {
      if (server.transport === undefined) {
        unsubscribe?.();
        return;
      }
      server.sendToolListChanged().catch(() => {
        // The connection is going away.
      });
    });
  };
}

/**
 * The SDK's Server, except that a tools/call answered with a task handle
 * (`resultType: "task"`, the tasks extension's CreateTaskResult) leaves as
 * it is: the SDK's tools/call result seam would stamp `content: []` on it and
 * validate it as a CallToolResult. Everything else keeps the SDK's seam
 * (request validation, requestState verification, input_required).
 */
class HostServer extends Server {
  /** Told the client each request names (set after construction: handlers read it at request time). */
  clientSeen: ((client: ClientNamed) => void) | undefined;

  protected override _wrapHandler(
    method: string,
    given: Parameters<Server['_wrapHandler']>[1],
  ): ReturnType<Server['_wrapHandler']> {
    const wrapped = this.wrapTaskHandle(method, given);
    // Schema failures come out of the SDK's validation as zod dumps: answered -32602 in one line.
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        // A registry error (a binding refusing its workspace, say) is answered with its own code, not -32603.
        throw asInvalidParams(method, error instanceof MoorError ? toProtocolError(error) : error);
      }
    };
  }

  // Not a #private method: the SDK's constructor registers handlers before private members exist.
  private wrapTaskHandle(
    method: string,
    given: Parameters<Server['_wrapHandler']>[1],
  ): ReturnType<Server['_wrapHandler']> {
    // The request's trace id is the scope of everything its handler does (logs, tasks it starts).
    const handler: typeof given = (request, ctx) => {
      const client = this.clientSeen && clientNamedBy(method, request.params, ctx.mcpReq.envelope);
      if (client) this.clientSeen?.(client);
      return runWithTrace(traceIdOf(request), () => given(request, ctx));
    };
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    const wrapped = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if ((result as { resultType?: unknown }).resultType === 'task') throw new TaskHandleEscape(result);
      return result;
    });
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof TaskHandleEscape) return error.result;
        throw error;
      }
    };
  }
}

/** Carries a task handle past the SDK's CallToolResult seam (see HostServer). */
class TaskHandleEscape extends Error {
  constructor(readonly result: Result) {
    super('task handle');
  }
}

/**
 * The capabilities of a 2025 instance that lives for one HTTP POST: no
 * `listChanged` and no `resources.subscribe`, since those notifications
 * would have to arrive outside any request and stateless 2025 HTTP has no
 * stream to carry them. resources/subscribe still answers `{}` there (a
 * client that subscribes regardless is not refused), it just promises nothing.
 */
function undeliverableDropped(capabilities: ServerCapabilities): ServerCapabilities {
  const { tools, resources, prompts, ...rest } = capabilities;
  return {
    ...rest,
    ...(tools ? { tools: {} } : {}),
    ...(resources ? { resources: {} } : {}),
    ...(prompts ? { prompts: {} } : {}),
  };
}

/** Shallow-merges an extension's capabilities; `extensions` entries are merged key by key. */
function mergeCapabilities(into: ServerCapabilities, extra: ServerCapabilities | undefined): void {
  if (!extra) return;
  const target = into as Record<string, unknown>;
  for (const [key, value] of Object.entries(extra)) {
    const existing = target[key];
    target[key] =
      existing && typeof existing === 'object' && value && typeof value === 'object'
        ? { ...(existing as object), ...(value as object) }
        : value;
  }
}
