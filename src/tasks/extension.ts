/**
 * The tasks extension on the host (io.modelcontextprotocol/tasks): what each
 * server instance advertises and answers, and the take-over of a tools/call
 * that runs as a task.
 *
 * Negotiation is per request. A 2026-07-28 request declares the extension in
 * its envelope's client capabilities; a 2025 connection declares it in its
 * initialize (and is the only kind of 2025 client that sees it advertised).
 * Only a tools/call that declares it and carries a session key (the task's
 * owner) may get a CreateTaskResult; everything else runs synchronously,
 * except a task-only tool, which answers -32021. tasks/get|update|cancel from
 * a request that did not declare it answer -32021; an unknown, expired or
 * foreign task id answers -32602.
 */
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type InputRequest,
  type InputResponse,
  type ProtocolError,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { isMoorError } from '../errors.js';
import type { CallerScope } from '../host/call-scope.js';
import type { Catalog } from '../host/catalog.js';
import { InputRequiredSignal, inputChannel } from '../host/input.js';
import { protocolError, toProtocolError } from '../host/protocol-error.js';
import type { HostExtension, InterceptedToolCall } from '../host/server-factory.js';
import { callTool, withoutInBandArguments } from '../host/tool-call.js';
import { createTaskResult, TASKS_EXTENSION, type TaskService } from './service.js';

export interface TasksExtensionOptions {
  readonly catalog: Catalog;
  /** The task runtime; undefined where no tasks are served (direct stdio): tools then run synchronously. */
  readonly service: TaskService | undefined;
  onInternalError(error: unknown, tool: string): void;
}

const REQUIRED_CAPABILITIES = { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities;
const taskIdParams = z.looseObject({ taskId: z.string() });
const updateParams = z.looseObject({ taskId: z.string() });

/** Whether this request declared the tasks extension (its envelope; on 2025, the connection's initialize). */
export function declaresTasks(ctx: ServerContext, server: Server): boolean {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const fromEnvelope = envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  if (fromEnvelope !== undefined) return hasTasks(fromEnvelope);
  const fromMeta = (ctx.mcpReq._meta as Record<string, unknown> | undefined)?.[
    CLIENT_CAPABILITIES_META_KEY
  ] as ClientCapabilities | undefined;
  if (fromMeta !== undefined && hasTasks(fromMeta)) return true;
  return hasTasks(server.getClientCapabilities());
}

function hasTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

function missingCapability(what: string): ProtocolError {
  return protocolError(
    'MISSING_CLIENT_CAPABILITY',
    `${what} needs the ${TASKS_EXTENSION} extension: declare it in the request's client capabilities.`,
    { requiredCapabilities: REQUIRED_CAPABILITIES },
  );
}

export function createTasksExtension(options: TasksExtensionOptions): HostExtension {
  const { catalog, service } = options;

  const startTask = async (
    tasks: TaskService,
    scope: CallerScope,
    owner: string,
    params: InterceptedToolCall['request']['params'],
    cancellation: 'abort' | 'detach',
    preAnswered: Readonly<Record<string, InputResponse>>,
  ): Promise<Record<string, unknown>> => {
    // Committed before the CreateTaskResult goes out: a tasks/get on any daemon finds it.
    const task = await tasks.create(owner, params.name);
    tasks.start(task, { cancellation, preAnswered }, (env) =>
      callTool(catalog, scope, params, {
        signal: env.signal,
        progress: env.progress,
        onInternalError: options.onInternalError,
        requestInput: env.requestInput,
      }),
    );
    return createTaskResult(task);
  };

  return {
    install(server, scope, ctx) {
      if (service === undefined) return;
      if (ctx.era === 'modern') {
        server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } } as never);
      } else {
        // 2025: advertised only to a client whose initialize declared the extension.
        const initialize = (
          server as unknown as { _oninitialize(r: unknown): Promise<Record<string, unknown>> }
        )._oninitialize;
        server.setRequestHandler('initialize', async (request) => {
          const result = await initialize.call(server, request);
          if (!hasTasks(request.params.capabilities)) return result as never;
          const capabilities = (result.capabilities ?? {}) as Record<string, unknown>;
          const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>;
          return {
            ...result,
            capabilities: { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } },
          } as never;
        });
      }
      const owner = () => scope.sessionKey;
      server.setRequestHandler('tasks/get', { params: taskIdParams }, async (params, reqCtx) => {
        if (!declaresTasks(reqCtx, server)) throw missingCapability('tasks/get');
        return service.detailed(await inRegistryWords(service.get(params.taskId, owner()))) as never;
      });
      server.setRequestHandler('tasks/update', { params: updateParams }, async (params, reqCtx) => {
        if (!declaresTasks(reqCtx, server)) throw missingCapability('tasks/update');
        // The SDK lifts `inputResponses` out of params into the request context.
        const responses =
          (reqCtx.mcpReq.inputResponses as Record<string, unknown> | undefined) ??
          (params as { inputResponses?: Record<string, unknown> }).inputResponses ??
          {};
        await inRegistryWords(service.update(params.taskId, owner(), responses));
        return { resultType: 'complete' } as never;
      });
      server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async (params, reqCtx) => {
        if (!declaresTasks(reqCtx, server)) throw missingCapability('tasks/cancel');
        await inRegistryWords(service.cancel(params.taskId, owner()));
        return { resultType: 'complete' } as never;
      });
    },

    async interceptToolCall(call) {
      const entry = catalog.tool(call.request.params.name);
      const task = entry?.definition.task;
      if (entry === undefined || task === undefined) return undefined;
      const params = call.request.params;
      const parsed = entry.definition.input.safeParse(withoutInBandArguments(params.arguments ?? {}));
      if (!parsed.success) return call.runPlain(); // the same invalid-arguments result as any call
      const owner = call.scope.sessionKey;
      const declared = service !== undefined && declaresTasks(call.ctx, call.server);
      if (!declared || owner === undefined) {
        if (task.eligibility === 'required') {
          if (!declared) throw missingCapability(`The tool ${params.name} runs only as a task; it`);
          throw protocolError(
            'SESSION_REQUIRED',
            `The tool ${params.name} runs only as a task, and a task needs a session key: send the Moor-Session header (or connect through moor stdio).`,
          );
        }
        // Synchronous: requestInput travels as multi-round-trip input (2025: elicitation).
        return call.runPlain();
      }
      // Input the tool needs before a task exists: multi-round-trip rounds on this call.
      let preAnswered: Record<string, InputResponse> = {};
      const before = task.inputBeforeTask?.(parsed.data);
      if (before !== undefined && Object.keys(before).length > 0) {
        const channel = inputChannel(call.ctx, `tools/call:${params.name}`, call.inputState);
        try {
          preAnswered = await channel.requestInput(before as Record<string, InputRequest>);
        } catch (error) {
          if (error instanceof InputRequiredSignal) return channel.inputRequired(error);
          throw error;
        }
      }
      return (await inRegistryWords(
        startTask(service, call.scope, owner, params, task.cancellation, preAnswered),
      )) as CallToolResult;
    },
  };
}

/**
 * A registry error from below (the store unreachable) answers with its own
 * code and data; thrown as it is, the SDK would answer -32603 with its text.
 */
async function inRegistryWords<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isMoorError(error) && error.code === 'STORE_UNAVAILABLE') throw toProtocolError(error);
    throw error;
  }
}
