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
import { createDaemonLog, type DaemonLog } from '../daemon/logger.js';
import { isStartRefusal, recordStartRefusal } from '../daemon/start-failure.js';
import { MoorError } from '../errors.js';
import type { AdmissionGate } from '../host/admission.js';
import type { Binding } from '../host/binding.js';
import { Workspace } from '../host/binding.js';
import { Catalog } from '../host/catalog.js';
import { erasePack, type Pack } from '../host/pack.js';
import { createServerFactory } from '../host/server-factory.js';
import type { HttpEndpoint } from '../http/endpoint.js';
import { resolveWorkspaceRoot } from '../packs/decisions/corpus/discover.js';
import { createDecisionsPack } from '../packs/decisions/pack.js';
import type { DecisionsState } from '../packs/decisions/state.js';
import { createTestingPack } from '../packs/testing/pack.js';
import { createTasksTestPack, TASKS_CONFORMANCE_PACK } from '../packs/testing-tasks/pack.js';
import {
  type DaemonStatus,
  helloError,
  type SessionHello,
  type TasksControlReply,
  type TasksControlRequest,
} from '../protocol/hello.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { type RoomKey, type RoomLease, Rooms, roomId } from '../sessions/rooms.js';
import { openTaskStore } from '../store/open-store.js';
import type { TaskRecord } from '../store/task-store.js';
import { createTasksExtension } from '../tasks/extension.js';
import { TaskService } from '../tasks/service.js';
import { IDENTITY, SERVER_PREAMBLE } from './identity.js';
import { startObservability } from './observability.js';
import { resolveWorkspace, type StoreOptions } from './options.js';
import { namedPacks } from './packs.js';
import { type RoomView, roomStatus, taskCounts, tasksStatus } from './status-snapshot.js';
import { statusPageRenderer } from './status-view.js';

export interface DaemonRunOptions extends StoreOptions {
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
function tasksControl(tasks: TaskService, request: TasksControlRequest): TasksControlReply {
  if (request.action === 'list') {
    return { tasks: tasks.list(request.sessionKey).map((task) => taskView(tasks, task)) };
  }
  const owner = (id: string) => request.sessionKey ?? tasks.store.get(id, Date.now())?.ownerKey;
  try {
    const id = request.taskId ?? '';
    if (request.action === 'cancel') tasks.cancel(id, owner(id));
    return { tasks: [taskView(tasks, tasks.get(id, owner(id)))] };
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

/**
 * Starts the daemon. A failure is thrown once, after it is in the log and,
 * when starting again cannot cure it, in the state dir's StartRefusal record
 * (what a proxy that spawned this daemon reads instead of retrying).
 */
export async function runDaemon(
  paths: StatePaths,
  options: DaemonRunOptions,
  releaseLock: () => void,
): Promise<DaemonProcess> {
  let log: DaemonLog;
  try {
    log = createDaemonLog({ file: paths.log, stderr: options.stderrLog, level: options.logLevel });
  } catch (error) {
    recordStartRefusal(paths.startRefusal, error);
    throw error;
  }
  try {
    return await composeDaemon(paths, options, releaseLock, log);
  } catch (error) {
    recordStartRefusal(paths.startRefusal, error);
    // In a terminal the caller's one line is the report; a detached daemon's log gets the structured one too.
    if (!options.stderrLog) {
      const fields = isStartRefusal(error) ? { code: error.code } : { err: error };
      log.logger.fatal(fields, `the daemon could not start: ${(error as Error)?.message ?? String(error)}`);
    }
    log.close();
    throw error;
  }
}

async function composeDaemon(
  paths: StatePaths,
  options: DaemonRunOptions,
  releaseLock: () => void,
  log: DaemonLog,
): Promise<DaemonProcess> {
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

  // Durable tasks: the store in the state dir; what a previous daemon left running is failed now.
  const taskStore = openTaskStore({
    file: paths.database,
    resetStore: options.resetStore,
    onReset: (movedTo) =>
      logger.warn(
        { movedTo },
        `the task store was not a readable database: moved it to ${movedTo}, starting empty`,
      ),
  });
  const tasks = new TaskService({
    store: taskStore,
    incarnation: `${process.pid}-${randomUUID()}`,
    retentionMs: options.taskRetentionMs,
    onInternalError,
    log: (message, fields) => logger.warn(fields ?? {}, message),
  });
  if (tasks.interruptedAtStart > 0)
    logger.warn({ tasks: tasks.interruptedAtStart }, 'failed the tasks a previous daemon left running');
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

  // Observability: the gate and the status snapshot exist once the daemon starts; gauges read them then.
  let gate: AdmissionGate | undefined;
  let statusSnapshot: (() => DaemonStatus) | undefined;
  const roomViews = (): RoomView[] =>
    rooms.loaded().map((room) => ({
      root: room.key.root,
      connections: room.connections,
      workspace: room.state.workspace,
      decisionsPack: (room.state.packs.get(catalogDecisions) ?? catalogDecisions) as Pack<DecisionsState>,
    }));
  const observability = await startObservability({
    toolNames: catalog.tools.map((tool) => tool.name),
    version: IDENTITY.version,
    sources: {
      inFlight: () => gate?.inFlight ?? 0,
      sessions: () => statusSnapshot?.().sessions?.length ?? 0,
      roomsLoaded: () => rooms.size,
      tasksByStatus: () => taskCounts(tasks.list(undefined)),
    },
  });
  catalog.toolCallObserver = observability.observer?.toolCall;
  const { metrics } = observability;

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
      version: IDENTITY.version,
      httpUrl: http?.url ?? null,
      workspaces: rooms.list().map((r) => ({ root: r.root, connections: r.connections })),
      rooms: roomViews().map(roomStatus),
      tasks: tasksStatus(tasks.list(undefined)),
      observability: { metrics: metrics !== undefined, tracing: observability.tracer !== undefined },
    }),
    ...(observability.observer !== undefined ? { observer: observability.observer } : {}),
    ...(metrics !== undefined ? { metrics: () => metrics.text() } : {}),
    onStopping: async () => {
      await http?.close(options.graceMs);
    },
    beforeListen: async (daemon) => {
      gate = daemon.gate;
      statusSnapshot = daemon.status;
      const { incarnation } = daemon;
      if (!options.http) return;
      // Loaded only when asked for: a socket-only daemon (what proxies start) starts faster without it.
      const { startHttpEndpoint } = await import('../http/endpoint.js');
      const { observabilityPages } = await import('../http/pages.js');
      http = await startHttpEndpoint({
        host: options.http.host,
        port: options.http.port,
        ...(options.http.token !== undefined ? { token: options.http.token } : {}),
        catalog,
        identity: IDENTITY,
        incarnation,
        admission: daemon.gate,
        observer: observability.observer,
        pages: observabilityPages({
          ...(metrics !== undefined
            ? { metrics: async () => ({ text: await metrics.text(), contentType: metrics.contentType }) }
            : {}),
          status: statusPageRenderer(daemon.status, roomViews),
          onError: (error, page) => logger.error({ err: error, page }, `http: ${page} failed`),
        }),
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
      await observability
        .shutdown()
        .catch((error: unknown) => logger.warn({ err: error }, 'exporting the last spans failed'));
      for (const { timer } of httpLeases.values()) clearTimeout(timer);
      httpLeases.clear();
      rooms.closeAll();
      tasks.close();
      taskStore.close();
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
