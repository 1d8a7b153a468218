/**
 * One 2026-07-28 `subscriptions/listen` stream, whatever carries it (an SSE
 * response over HTTP, a connection's lines on stdio and the socket): the
 * filter it asked for, the subset moor honours, the acknowledgement, the
 * change notifications of its rooms and the status of its session's tasks,
 * each stamped with the subscription id, and the graceful result.
 *
 * moor serves listen streams itself rather than through the SDK's router:
 * the SDK's streams hear one process-wide bus (no rooms), cannot refuse a
 * stream over a URI budget before acknowledging it, and never honour the
 * tasks extension's `taskIds`.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type ServerEvent,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/server';
import { MoorError } from '../../errors.js';
import { MODERN_PROTOCOL_VERSION, TASKS_EXTENSION_ID } from '../../protocol/constants.js';
import { traceIdOf } from '../../protocol/trace.js';
import type { CallerScope } from '../call-scope.js';
import type { ListenBudget } from './listen-budget.js';
import type { EventRouter, TaskStatusEvent } from './router.js';

export const LISTEN_METHOD = 'subscriptions/listen';

export interface ListenFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  readonly taskIds?: readonly string[];
}

export interface ListenRequest {
  readonly id: string | number;
  readonly filter: ListenFilter;
  /** The request's envelope declares the tasks extension. */
  readonly declaresTasks: boolean;
  readonly traceId: string | undefined;
}

/** What this server can deliver on a stream. */
export interface ListenOffer {
  readonly prompts: boolean;
  /** Task status pushes (the daemon; direct stdio serves no tasks). */
  readonly tasks: boolean;
}

/** Who the stream belongs to: the rooms it hears and the session whose tasks it may follow. */
export interface ListenAudience {
  readonly rooms: readonly string[];
  readonly ownerKey: string | undefined;
  /**
   * Where the rooms change while the stream is open (a session switching or
   * loading its workspaces): asked at each event instead of `rooms`.
   */
  readonly roomsNow?: () => readonly string[];
  /** Whether a URI names a resource (the others cost nothing from the budget's shares); absent: all do. */
  readonly names?: (uri: string) => boolean;
}

/** Who a scope's listen streams speak for: its rooms (asked anew when they can change) and its session. */
export function audienceOf(scope: CallerScope, names?: (uri: string) => boolean): ListenAudience {
  return {
    rooms: scope.rooms(),
    ownerKey: scope.sessionKey,
    ...(names !== undefined ? { names } : {}),
    ...(scope.roomsChange ? { roomsNow: () => scope.rooms() } : {}),
  };
}

/**
 * A well-formed 2026-07-28 listen request, or undefined for anything else
 * (the SDK then answers it with its own validation error).
 */
export function parseListen(message: unknown): ListenRequest | undefined {
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== LISTEN_METHOD) return undefined;
  const id = message.id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const params = message.params;
  if (!isObject(params) || !isObject(params._meta) || !isObject(params.notifications)) return undefined;
  if (params._meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return undefined;
  const n = params.notifications;
  for (const flag of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (n[flag] !== undefined && typeof n[flag] !== 'boolean') return undefined;
  }
  for (const list of ['resourceSubscriptions', 'taskIds'] as const) {
    const value = n[list];
    if (value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string')))
      return undefined;
  }
  const capabilities = params._meta[CLIENT_CAPABILITIES_META_KEY];
  const extensions =
    isObject(capabilities) && isObject(capabilities.extensions) ? capabilities.extensions : {};
  return {
    id,
    filter: n as ListenFilter,
    declaresTasks: extensions[TASKS_EXTENSION_ID] !== undefined,
    traceId: traceIdOf(message),
  };
}

/**
 * What moor honours of a filter: the flags the client set and the server
 * can deliver, its URIs, and its task ids when tasks are served. Throws
 * -32021 for task ids from a client that did not declare the extension.
 */
export function honouredFilter(request: ListenRequest, offer: ListenOffer): ListenFilter {
  const f = request.filter;
  if (f.taskIds !== undefined && offer.tasks && !request.declaresTasks) {
    throw new MoorError(
      'MISSING_CLIENT_CAPABILITY',
      `Listening for task status needs the ${TASKS_EXTENSION_ID} extension in the request's client capabilities.`,
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
    );
  }
  const uris = f.resourceSubscriptions === undefined ? [] : [...new Set(f.resourceSubscriptions)];
  return {
    ...(f.toolsListChanged === true ? { toolsListChanged: true } : {}),
    ...(f.promptsListChanged === true && offer.prompts ? { promptsListChanged: true } : {}),
    ...(f.resourcesListChanged === true ? { resourcesListChanged: true } : {}),
    ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
    ...(f.taskIds !== undefined && offer.tasks ? { taskIds: [...new Set(f.taskIds)] } : {}),
  };
}

/** The server's identity, stamped on a stream's graceful result. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

export interface ListenStreamOptions {
  readonly request: ListenRequest;
  readonly offer: ListenOffer;
  readonly audience: ListenAudience;
  readonly router: EventRouter;
  readonly budget: ListenBudget;
  readonly serverInfo: ServerInfo;
  /** Writes one message of this stream. */
  send(message: JSONRPCMessage): void;
  /** Called once when the stream has ended (either side). */
  onClosed?(): void;
}

/** One open listen stream. Construct with openListen (which may refuse it). */
export class ListenStream {
  readonly id: string | number;
  readonly #options: ListenStreamOptions;
  readonly #honoured: ListenFilter;
  readonly #uris: ReadonlySet<string>;
  readonly #tasks: ReadonlySet<string>;
  readonly #release: () => void;
  #stops: Array<() => void> = [];
  #closed = false;
  /** What is heard before the acknowledgement has gone out (undefined once it has). */
  #held: Array<[string, Record<string, unknown>]> | undefined = [];

  constructor(options: ListenStreamOptions, honoured: ListenFilter, release: () => void) {
    this.id = options.request.id;
    this.#options = options;
    this.#honoured = honoured;
    this.#uris = new Set(honoured.resourceSubscriptions ?? []);
    this.#tasks = new Set(honoured.taskIds ?? []);
    this.#release = release;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Follows the rooms (and tasks), then sends the acknowledgement; an empty
   * filter ends at once. With task ids the acknowledgement waits for the task
   * rows: it echoes only the ids this session owns (an unknown or foreign id
   * is left out, so a stream never learns another session's task exists), and
   * what is heard meanwhile is held until it has gone out.
   */
  start(): void {
    const { router, audience } = this.#options;
    if (Object.keys(this.#honoured).length === 0) {
      this.#acknowledge(this.#honoured);
      this.close(true);
      return;
    }
    const roomsNow = audience.roomsNow;
    this.#stops.push(
      roomsNow === undefined
        ? router.subscribe(audience.rooms, (event) => this.#onEvent(event))
        : router.subscribeAll((event, roomId) => {
            if (roomsNow().includes(roomId)) this.#onEvent(event);
          }),
    );
    // A session's tool list changes with its active workspace: only its own streams hear that.
    if (this.#honoured.toolsListChanged === true && audience.ownerKey !== undefined) {
      this.#stops.push(router.subscribeSession(audience.ownerKey, (event) => this.#onEvent(event)));
    }
    const owner = audience.ownerKey;
    if (this.#honoured.taskIds === undefined) {
      this.#acknowledge(this.#honoured);
      return;
    }
    if (owner === undefined || this.#tasks.size === 0) {
      this.#acknowledge({ ...this.#honoured, taskIds: [] });
      return;
    }
    // Each named task's current state once, then its changes. Subscribed first, so no change is
    // lost while the rows are read; a change heard meanwhile is newer than the row, so it wins.
    const heard = new Set<string>();
    this.#stops.push(
      router.subscribeTasks(owner, (event) => {
        if (this.#tasks.has(event.taskId)) heard.add(event.taskId);
        this.#onTask(event);
      }),
    );
    const acknowledge = (current: readonly TaskStatusEvent[]) => {
      const owned = new Set([...heard, ...current.map((event) => event.taskId)]);
      this.#acknowledge({ ...this.#honoured, taskIds: [...this.#tasks].filter((id) => owned.has(id)) });
      for (const event of current) if (!heard.has(event.taskId)) this.#onTask(event);
    };
    router.currentTasks(owner, [...this.#tasks]).then(acknowledge, () => acknowledge([]));
  }

  #acknowledge(echoed: ListenFilter): void {
    if (this.#closed || this.#held === undefined) return;
    const held = this.#held;
    this.#held = undefined;
    this.#write('notifications/subscriptions/acknowledged', { notifications: echoed });
    for (const [method, params] of held) this.#write(method, params);
  }

  /** Ends the stream; `graceful` sends the listen request's result first. */
  close(graceful: boolean): void {
    if (this.#closed) return;
    if (graceful) {
      this.#options.send({
        jsonrpc: '2.0',
        id: this.id,
        result: {
          resultType: 'complete',
          _meta: { [SUBSCRIPTION_ID_META_KEY]: this.id, [SERVER_INFO_META_KEY]: this.#options.serverInfo },
        },
      } as JSONRPCMessage);
    }
    this.#closed = true;
    for (const stop of this.#stops.splice(0)) stop();
    this.#release();
    this.#options.onClosed?.();
  }

  #onEvent(event: ServerEvent): void {
    const h = this.#honoured;
    switch (event.kind) {
      case 'tools_list_changed':
        if (h.toolsListChanged) this.#notify('notifications/tools/list_changed', {});
        return;
      case 'prompts_list_changed':
        if (h.promptsListChanged) this.#notify('notifications/prompts/list_changed', {});
        return;
      case 'resources_list_changed':
        if (h.resourcesListChanged) this.#notify('notifications/resources/list_changed', {});
        return;
      case 'resource_updated':
        if (this.#uris.has(event.uri)) this.#notify('notifications/resources/updated', { uri: event.uri });
        return;
    }
  }

  #onTask(event: TaskStatusEvent): void {
    if (this.#tasks.has(event.taskId)) this.#notify('notifications/tasks', { ...event.detailed });
  }

  #notify(method: string, params: Record<string, unknown>): void {
    if (this.#held !== undefined) this.#held.push([method, params]);
    else this.#write(method, params);
  }

  #write(method: string, params: Record<string, unknown>): void {
    if (this.#closed) return;
    const meta = isObject(params._meta) ? params._meta : {};
    this.#options.send({
      jsonrpc: '2.0',
      method,
      params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID_META_KEY]: this.id } },
    } as JSONRPCMessage);
  }
}

/**
 * Decides a listen request: the honoured filter, then the URI budget.
 * Throws a MoorError (MISSING_CLIENT_CAPABILITY, LISTEN_LIMIT) when the
 * stream is refused; nothing has been sent then. The caller starts it.
 */
export function openListen(options: ListenStreamOptions): ListenStream {
  const honoured = honouredFilter(options.request, options.offer);
  const { ownerKey, names } = options.audience;
  const release = options.budget.reserve(honoured.resourceSubscriptions ?? [], {
    owner: ownerKey,
    ...(names !== undefined ? { names } : {}),
  });
  return new ListenStream(options, honoured, release);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
