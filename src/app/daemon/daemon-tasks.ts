/**
 * The daemon's durable side: the stores (SQLite in the state dir, or
 * PostgreSQL shared by several daemons, which then also tell each other what
 * changed through LISTEN/NOTIFY), the task service with its status feed, and
 * the answers to `moor tasks …` over the socket.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { MoorError } from '../../errors.js';
import { type ClusterBus, localBus } from '../../events/bus.js';
import type { EventRouter } from '../../host/events/router.js';
import { helloError, type TasksControlReply, type TasksControlRequest } from '../../protocol/hello.js';
import { keyPrefix, uniqueKeyPrefixes } from '../../protocol/session-prefix.js';
import { openStores, parseStoreUrl, type Stores } from '../../store/open.js';
import type { TaskRecord } from '../../store/task-store.js';
import { TaskService } from '../../tasks/service.js';
import { TaskStatusFeed } from '../../tasks/status-feed.js';
import type { StoreOptions } from '../commands/options.js';

export interface DaemonTasksOptions {
  readonly databaseFile: string;
  readonly options: StoreOptions & {
    readonly store?: string | undefined;
    readonly taskRetentionMs?: number | undefined;
    readonly taskLeaseMs?: number | undefined;
  };
  readonly events: EventRouter;
  readonly logger: Logger;
  onInternalError(error: unknown, tool: string): void;
}

export interface DaemonTasks {
  readonly stores: Stores;
  readonly bus: ClusterBus;
  readonly tasks: TaskService;
  /** A copy of every task, refreshed after status changes: status and gauges read it synchronously. */
  taskList(): readonly TaskRecord[];
}

export async function openDaemonTasks({
  databaseFile,
  options,
  events,
  logger,
  onInternalError,
}: DaemonTasksOptions): Promise<DaemonTasks> {
  // Durable tasks and session bindings: the SQLite file in the state dir, or PostgreSQL shared by
  // several daemons, which then also tell each other what changed through LISTEN/NOTIFY.
  const daemonId = `${process.pid}-${randomUUID()}`;
  const stores = await openStores(
    parseStoreUrl(options.store, databaseFile),
    `moor ${daemonId}`.slice(0, 63),
    {
      resetStore: options.resetStore,
      onReset: (movedTo) =>
        logger.warn(
          { movedTo },
          `the task store was not a readable database: moved it to ${movedTo}, starting empty`,
        ),
    },
  );
  let bus: ClusterBus = localBus(daemonId);
  if (stores.postgres !== undefined) {
    const { PgBus } = await import('../../events/pg-bus.js');
    bus = await PgBus.start({
      daemonId,
      pool: stores.postgres.pool,
      connect: stores.postgres.connect,
      keys: stores.postgres.keys,
      log: (level, message, fields) => logger[level](fields ?? {}, message),
    });
  }
  // The store answers asynchronously, status and gauges synchronously: they read a copy of the task
  // list, refreshed after status changes (coalesced) and every few seconds.
  let taskList: readonly TaskRecord[] = [];
  let refreshing = false;
  const refreshTaskList = (): void => {
    if (refreshing) return;
    refreshing = true;
    setImmediate(() => {
      tasks
        .list(undefined)
        .then((list) => {
          taskList = list;
        })
        .catch(() => {
          // the store is closing: keep the last copy
        })
        .finally(() => {
          refreshing = false;
        });
    });
  };
  const taskListTimer = setInterval(refreshTaskList, 2_000);
  taskListTimer.unref();

  const taskStatus = new TaskStatusFeed(events);
  const tasks = new TaskService({
    store: stores.tasks,
    incarnation: daemonId,
    bus,
    onStatusChange: (taskId) => {
      taskStatus.changed(taskId);
      refreshTaskList();
    },
    retentionMs: options.taskRetentionMs,
    leaseMs: options.taskLeaseMs,
    onInternalError,
    log: (message, fields) => logger.warn(fields ?? {}, message),
  });
  taskStatus.attach(tasks);
  const interrupted = await tasks.ready;
  refreshTaskList();
  if (interrupted > 0) logger.warn({ tasks: interrupted }, 'failed the tasks a stopped daemon left running');
  logger.info({ store: stores.kind, daemon: daemonId }, `task store: ${stores.kind}`);

  return { stores, bus, tasks, taskList: () => taskList };
}

/** `moor tasks …` over the socket: people see every task of this daemon (the socket is the user's own). */
export async function tasksControl(
  tasks: TaskService,
  request: TasksControlRequest,
): Promise<TasksControlReply> {
  if (request.action === 'list') {
    const listed = await tasks.list(request.sessionKey);
    const owners = uniqueKeyPrefixes(listed.map((task) => task.ownerKey));
    return { tasks: listed.map((task) => taskView(tasks, task, owners.get(task.ownerKey))) };
  }
  const owner = async (id: string) => request.sessionKey ?? (await tasks.store.get(id, Date.now()))?.ownerKey;
  try {
    const id = request.taskId ?? '';
    if (request.action === 'cancel') await tasks.cancel(id, await owner(id));
    return { tasks: [taskView(tasks, await tasks.get(id, await owner(id)))] };
  } catch (error) {
    return { error: helloError(new MoorError('TASK_NOT_FOUND', (error as Error).message)) };
  }
}

/** A task as operators see it: its owner named by a key prefix, never the key (a credential over HTTP). */
function taskView(
  tasks: TaskService,
  task: TaskRecord,
  owner = keyPrefix(task.ownerKey),
): Record<string, unknown> {
  return { ...tasks.detailed(task), tool: task.tool, owner };
}
