/**
 * `moor daemon run`: the composition. Builds the catalog once (decisions pack,
 * plus the test pack under MOOR_TEST_PACK=1), the rooms (one loaded workspace
 * per repository, shared by its connections), the logger, and starts the
 * socket daemon. The caller holds the state dir's lock.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { type DaemonConfig, type RunningDaemon, startDaemon } from '../daemon/daemon.js';
import { createDaemonLog } from '../daemon/logger.js';
import { MoorError } from '../errors.js';
import { type ClusterBus, localBus } from '../events/bus.js';
import type { Binding } from '../host/binding.js';
import { Workspace } from '../host/binding.js';
import { Catalog } from '../host/catalog.js';
import { erasePack, type Pack } from '../host/pack.js';
import { createServerFactory } from '../host/server-factory.js';
import type { HttpEndpoint } from '../http/endpoint.js';
import { resolveWorkspaceRoot } from '../packs/decisions/corpus/discover.js';
import { createDecisionsPack } from '../packs/decisions/pack.js';
import { createTestingPack } from '../packs/testing/pack.js';
import { createTasksTestPack, TASKS_CONFORMANCE_PACK } from '../packs/testing-tasks/pack.js';
import {
  helloError,
  type SessionHello,
  type TasksControlReply,
  type TasksControlRequest,
} from '../protocol/hello.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { type RoomKey, type RoomLease, Rooms, roomId } from '../sessions/rooms.js';
import { openStores, parseStoreUrl } from '../store/open.js';
import type { TaskRecord } from '../store/task-store.js';
import { createTasksExtension } from '../tasks/extension.js';
import { TaskService } from '../tasks/service.js';
import { IDENTITY, SERVER_PREAMBLE } from './identity.js';
import { resolveWorkspace } from './options.js';
import { namedPacks } from './packs.js';

export interface DaemonRunOptions {
  /** Default workspace for a hello that names none. */
  readonly workspace?: string | undefined;
  readonly decisions?: string | undefined;
  readonly maxInFlight: number;
  readonly graceMs: number;
  readonly roomKeepAliveMs: number;
  readonly logLevel: string;
  /** Also log to stderr (foreground `run` in a terminal). */
  readonly stderrLog: boolean;
  /** Serve Streamable HTTP too (`--http [HOST:]PORT`). */
  readonly http?:
    | { readonly host: string; readonly port: number; readonly token?: string | undefined }
    | undefined;
  /**
   * Directories an HTTP request's Moor-Workspace may name (it must be inside one).
   * Default: any directory owned by the daemon's user.
   */
  readonly allowedRoots?: readonly string[] | undefined;
  /** How long a finished task stays readable (`--task-retention-ms`, default 10 min). */
  readonly taskRetentionMs?: number | undefined;
  /**
   * Where tasks and session bindings live (`--store`, else env MOOR_STORE): default the SQLite file
   * `moor.db` in the state dir; `postgres://…` shares them between several daemons.
   */
  readonly store?: string | undefined;
  /** How long a running task's lease lasts (`--task-lease-ms`, default 15 s). */
  readonly taskLeaseMs?: number | undefined;
  /** Extra packs by name (`--pack`, env MOOR_PACKS): `tasks-conformance`. */
  readonly packs?: readonly string[] | undefined;
  /** Tools that write into the workspace are served (`--allow-writes`). */
  readonly allowWrites?: boolean | undefined;
  /** Session key for HTTP requests without Moor-Session (`--http-default-session`; test set-ups). */
  readonly httpDefaultSession?: string | undefined;
}

/** What a room holds: the workspace's pack states, opened through this room's own pack instances. */
interface RoomContents {
  readonly workspace: Workspace;
  /** The catalog's pack → this room's instance of it (differs when the room has its own --decisions). */
  readonly packs: ReadonlyMap<Pack<unknown>, Pack<unknown>>;
  close(): void;
}

/** `moor tasks …` over the socket: people see every task of this daemon (the socket is the user's own). */
async function tasksControl(tasks: TaskService, request: TasksControlRequest): Promise<TasksControlReply> {
  if (request.action === 'list') {
    return { tasks: (await tasks.list(request.sessionKey)).map((task) => taskView(tasks, task)) };
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

function taskView(tasks: TaskService, task: TaskRecord): Record<string, unknown> {
  return { ...tasks.detailed(task), tool: task.tool, owner: task.ownerKey };
}

export interface DaemonProcess {
  readonly daemon: RunningDaemon;
  readonly logger: Logger;
  /** Flushes and closes the log file (last thing before exit). */
  closeLog(): void;
  /** Where clients reach this daemon: for the foreground banner. */
  readonly httpUrl: string | null;
  readonly workspace: string;
}

export async function runDaemon(
  paths: StatePaths,
  options: DaemonRunOptions,
  releaseLock: () => void,
): Promise<DaemonProcess> {
  const log = createDaemonLog({ file: paths.log, stderr: options.stderrLog, level: options.logLevel });
  const { logger } = log;
  const testPack = process.env.MOOR_TEST_PACK === '1';
  const decisionsFor = (decisionsDir: string | undefined) =>
    erasePack(createDecisionsPack({ decisionsDir, watch: true, allowWrites: options.allowWrites }));
  const catalogDecisions = decisionsFor(undefined);
  const extraPacks = new Set([
    ...(options.packs ?? []),
    ...(process.env.MOOR_PACKS ?? '').split(',').filter((p) => p.length > 0),
  ]);
  const catalogPacks = [
    catalogDecisions,
    ...(testPack ? [erasePack(createTestingPack())] : []),
    ...(extraPacks.has(TASKS_CONFORMANCE_PACK) ? [erasePack(createTasksTestPack())] : []),
    ...namedPacks(extraPacks),
  ];
  const catalog = new Catalog(catalogPacks, SERVER_PREAMBLE);
  const defaults = resolveWorkspace({ workspace: options.workspace, decisions: options.decisions });

  const rooms = new Rooms<RoomContents>({
    keepAliveMs: options.roomKeepAliveMs,
    open: (key) => {
      const packs = new Map<Pack<unknown>, Pack<unknown>>();
      if (key.decisions !== undefined) packs.set(catalogDecisions, decisionsFor(key.decisions));
      const workspace = new Workspace(key.root);
      logger.info({ workspace: key.root }, 'room opened');
      return { workspace, packs, close: () => workspace.close() };
    },
    onUnload: (key) => logger.info({ workspace: key.root }, 'room unloaded'),
  });

  const onInternalError = (error: unknown, tool: string) =>
    logger.error({ err: error, tool }, `tool ${tool} failed`);

  // Durable tasks and session bindings: the SQLite file in the state dir, or PostgreSQL shared by
  // several daemons, which then also tell each other what changed through LISTEN/NOTIFY.
  const daemonId = `${process.pid}-${randomUUID()}`;
  const stores = await openStores(
    parseStoreUrl(options.store, paths.database),
    `moor ${daemonId}`.slice(0, 63),
  );
  let bus: ClusterBus = localBus(daemonId);
  if (stores.postgres !== undefined) {
    const { PgBus } = await import('../events/pg-bus.js');
    bus = await PgBus.start({
      daemonId,
      ...stores.postgres,
      log: (level, message, fields) => logger[level](fields ?? {}, message),
    });
  }
  const tasks = new TaskService({
    store: stores.tasks,
    incarnation: daemonId,
    bus,
    retentionMs: options.taskRetentionMs,
    leaseMs: options.taskLeaseMs,
    onInternalError,
    log: (message, fields) => logger.warn(fields ?? {}, message),
  });
  const interrupted = await tasks.ready;
  if (interrupted > 0) logger.warn({ tasks: interrupted }, 'failed the tasks a stopped daemon left running');
  logger.info({ store: stores.kind, daemon: daemonId }, `task store: ${stores.kind}`);
  const extensions = [createTasksExtension({ catalog, service: tasks, onInternalError })];

  const roomKeyOf = (hello: SessionHello): RoomKey => {
    if (hello.workspace === undefined)
      return { root: defaults.root, decisions: hello.decisions ?? defaults.decisionsDir };
    try {
      return {
        root: resolveWorkspaceRoot({ workspace: hello.workspace, env: {}, cwd: '/' }),
        decisions: hello.decisions,
      };
    } catch (error) {
      throw new MoorError('WORKSPACE_INVALID', (error as Error).message);
    }
  };

  const bindingFor = (lease: RoomLease<RoomContents>, sessionKey: string | undefined): Binding => {
    const { state, key } = lease.room;
    return {
      workspaceRoot: key.root,
      sessionKey,
      stateOf: <S>(pack: Pack<S>): S =>
        state.workspace.stateOf((state.packs.get(pack as Pack<unknown>) ?? pack) as Pack<S>),
    };
  };

  // HTTP requests hold their room through one lease per room, kept while requests keep coming.
  const httpLeases = new Map<string, { lease: RoomLease<RoomContents>; timer: NodeJS.Timeout }>();
  const httpRoom = (key: RoomKey): RoomLease<RoomContents> => {
    const id = roomId(key);
    const held = httpLeases.get(id);
    if (held) {
      held.timer.refresh();
      return held.lease;
    }
    const lease = rooms.acquire(key);
    const timer = setTimeout(() => {
      httpLeases.delete(id);
      lease.release();
    }, options.roomKeepAliveMs);
    timer.unref();
    httpLeases.set(id, { lease, timer });
    return lease;
  };
  const allowedRoots = options.allowedRoots?.map((r) => fs.realpathSync(path.resolve(r)));
  const checked = new Map<string, string>();
  const httpWorkspace = (workspace: string): string => {
    const cached = checked.get(workspace);
    if (cached !== undefined) return cached;
    if (!path.isAbsolute(workspace)) {
      throw new MoorError('WORKSPACE_INVALID', `Moor-Workspace must be an absolute path, got ${workspace}`);
    }
    let root: string;
    try {
      root = resolveWorkspaceRoot({ workspace, env: {}, cwd: '/' });
    } catch (error) {
      throw new MoorError('WORKSPACE_INVALID', `Moor-Workspace: ${(error as Error).message}`);
    }
    if (allowedRoots) {
      if (!allowedRoots.some((r) => root === r || root.startsWith(`${r}${path.sep}`))) {
        throw new MoorError(
          'WORKSPACE_INVALID',
          `Moor-Workspace ${root} is outside the daemon's allowed roots`,
        );
      }
    } else if (fs.statSync(root).uid !== process.getuid?.()) {
      throw new MoorError('WORKSPACE_INVALID', `Moor-Workspace ${root} is not owned by the daemon's user`);
    }
    if (checked.size > 1024) checked.clear();
    checked.set(workspace, root);
    return root;
  };

  let http: HttpEndpoint | undefined;

  const config: DaemonConfig = {
    paths,
    version: IDENTITY.version,
    maxInFlight: options.maxInFlight,
    graceMs: options.graceMs,
    log,
    releaseLock,
    openSession: (hello) => {
      const lease = rooms.acquire(roomKeyOf(hello));
      const binding = bindingFor(lease, hello.sessionKey);
      const factory: McpServerFactory = createServerFactory(catalog, {
        identity: IDENTITY,
        bind: () => binding,
        onInternalError,
        extensions,
      });
      return { factory, close: () => lease.release() };
    },
    describe: () => ({
      httpUrl: http?.url ?? null,
      workspaces: rooms.list().map((r) => ({ root: r.root, connections: r.connections })),
    }),
    onStopping: async () => {
      await http?.close(options.graceMs);
    },
    beforeListen: async ({ incarnation, gate }) => {
      if (!options.http) return;
      // Loaded only when asked for: a socket-only daemon (what proxies start) starts faster without it.
      const { startHttpEndpoint } = await import('../http/endpoint.js');
      http = await startHttpEndpoint({
        host: options.http.host,
        port: options.http.port,
        ...(options.http.token !== undefined ? { token: options.http.token } : {}),
        catalog,
        identity: IDENTITY,
        incarnation,
        admission: gate,
        // List changes and resource updates reach listen streams through the catalog's event bus.
        bus: catalog.events,
        // The lean path carries plain structured tools only (no logs, input rounds or streaming).
        ...(catalog.leanSafe ? {} : { lean: false }),
        extensions,
        bindForRequest: ({ sessionKey, workspace }) => {
          const key: RoomKey =
            workspace === undefined
              ? { root: defaults.root, decisions: defaults.decisionsDir }
              : { root: httpWorkspace(workspace) };
          return bindingFor(httpRoom(key), sessionKey ?? options.httpDefaultSession);
        },
        onInternalError,
        log: (level, message, fields) => logger[level](fields ?? {}, message),
      });
      logger.info({ url: http.url }, `serving HTTP on ${http.url}`);
    },
    onStopped: async () => {
      for (const { timer } of httpLeases.values()) clearTimeout(timer);
      httpLeases.clear();
      rooms.closeAll();
      await tasks.close().catch((error: unknown) => logger.warn({ err: error }, 'closing tasks failed'));
      await bus.close();
      await stores.close();
    },
    tasks: (request) => tasksControl(tasks, request),
  };

  const daemon = await startDaemon(config);
  logger.info({ testPack, workspace: defaults.root }, `moor ${IDENTITY.version} daemon ready`);
  return {
    daemon,
    logger,
    closeLog: () => log.close(),
    httpUrl: config.describe().httpUrl,
    workspace: defaults.root,
  };
}
