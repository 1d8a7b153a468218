import type { McpServerFactory } from '@modelcontextprotocol/server';
import { type DaemonConfig, startDaemon } from '../daemon/daemon.js';
import { createDaemonLog, type DaemonLog } from '../daemon/logger.js';
import { isStartRefusal, recordStartRefusal } from '../daemon/start-failure.js';
import { MoorError } from '../errors.js';
import type { AdmissionGate } from '../host/admission.js';
import { type Binding, Workspace } from '../host/binding.js';
import { Catalog } from '../host/catalog.js';
import { audienceOf } from '../host/events/listen.js';
import { ListenBudget } from '../host/events/listen-budget.js';
import { EventRouter } from '../host/events/router.js';
import { ListenTransport } from '../host/events/stdio-listens.js';
import { erasePack, type Pack } from '../host/pack.js';
import { openResourceStates } from '../host/resources.js';
import { createServerFactory } from '../host/server-factory.js';
import type { HttpEndpoint } from '../http/endpoint.js';
import { resolveWorkspaceRoot } from '../packs/decisions/corpus/find/discover.js';
import { createDecisionsPack } from '../packs/decisions/pack.js';
import type { DecisionsState } from '../packs/decisions/state.js';
import { createTestingPack } from '../packs/testing/pack.js';
import { createTasksTestPack, TASKS_CONFORMANCE_PACK } from '../packs/testing-tasks/pack.js';
import type { DaemonStatus, SessionHello } from '../protocol/hello.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { type RoomKey, type RoomLease, Rooms, roomId } from '../sessions/rooms.js';
import { sessionRequired } from '../sessions/session-errors.js';
import { createWorkspaceToolsPack } from '../sessions/tools.js';
import { createWorkspacePolicy } from '../sessions/workspace-path.js';
import { createTasksExtension } from '../tasks/extension.js';
import type { DaemonProcess, DaemonRunOptions } from './daemon/daemon-run-types.js';
import { DaemonSessions, type RoomContents } from './daemon/daemon-sessions.js';

export type { DaemonProcess, DaemonRunOptions } from './daemon/daemon-run-types.js';

import { resolveWorkspace } from './commands/options.js';
import { openDaemonTasks, tasksControl } from './daemon/daemon-tasks.js';
import { stateDirToken } from './daemon/http-token.js';
import { startObservability } from './daemon/observability.js';
import { namedPacks } from './daemon/packs.js';
import { refuseSystemFolder } from './daemon/system-folders.js';
import { IDENTITY, SERVER_PREAMBLE } from './identity.js';
import { type RoomView, roomStatus, taskCounts, tasksStatus } from './status/status-snapshot.js';
import { statusPageRenderer } from './status/status-view.js';

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
  const policy = createWorkspacePolicy({ allowedRoots: options.allowedRoots });
  const writeRoots = (options.writeRoots ?? []).map((dir) => policy.check(dir, { label: '--allow-writes' }));
  const decisionsFor = (decisionsDir: string | undefined) =>
    erasePack(createDecisionsPack({ decisionsDir, watch: true, allowWrites: writeRoots.length > 0 }));
  const catalogDecisions = decisionsFor(undefined);
  const extraPacks = new Set([
    ...(options.packs ?? []),
    ...(process.env.MOOR_PACKS ?? '').split(',').filter((p) => p.length > 0),
  ]);
  const defaults = resolveWorkspace({ workspace: options.workspace, decisions: options.decisions });

  // One router for every change event: rooms announce into it, the task feed and the catalog share it.
  const events = new EventRouter((error: unknown) => logger.warn({ err: error }, 'an event listener failed'));
  const rooms = new Rooms<RoomContents>({
    keepAliveMs: options.roomKeepAliveMs,
    ...(options.maxRooms === undefined ? {} : { maxLoaded: options.maxRooms }),
    open: (key) => {
      const packs = new Map<Pack<unknown>, Pack<unknown>>();
      if (key.decisions !== undefined) packs.set(catalogDecisions, decisionsFor(key.decisions));
      // What the room's pack states announce reaches only the connections bound to this room.
      const workspace = new Workspace(key.root, events.announcer(roomId(key)));
      logger.info({ workspace: key.root }, 'room opened');
      return { workspace, packs, close: () => workspace.close() };
    },
    onUnload: (key) => logger.info({ workspace: key.root }, 'room unloaded'),
  });

  const onInternalError = (error: unknown, tool: string) =>
    logger.error({ err: error, tool }, `tool ${tool} failed`);

  // Durable tasks and session bindings, in the store the flags name (SQLite in the state dir by default).
  const { stores, bus, tasks, taskList } = await openDaemonTasks({
    databaseFile: paths.database,
    options,
    events,
    logger,
    onInternalError,
  });

  // Sessions: their bindings in the same store as the tasks; rooms load when a call needs them.
  const sessions = new DaemonSessions({
    rooms,
    store: stores.sessions,
    decisionsPack: catalogDecisions,
    policy,
    writeRoots,
    maxParked: options.maxParked,
    retentionDays: options.sessionTtlDays,
    httpHoldMs: options.roomKeepAliveMs,
    // Several daemons on one PostgreSQL: a session switched on one is re-read on the others.
    ...(stores.postgres !== undefined ? { bus } : {}),
    events,
    onError: (error, what) => logger.error({ err: error }, `sessions: ${what} failed`),
  });
  const catalogPacks = [
    catalogDecisions,
    erasePack(createWorkspaceToolsPack(sessions.manager)),
    ...(testPack ? [erasePack(createTestingPack())] : []),
    ...(extraPacks.has(TASKS_CONFORMANCE_PACK) ? [erasePack(createTasksTestPack())] : []),
    ...namedPacks(extraPacks),
  ];
  const catalog = new Catalog(catalogPacks, SERVER_PREAMBLE, { workspaceArgument: true, events });
  const extensions = [createTasksExtension({ catalog, service: tasks, onInternalError })];

  const roomKeyOf = (hello: SessionHello): RoomKey => {
    if (hello.workspace === undefined)
      return { root: defaults.root, decisions: hello.decisions ?? defaults.decisionsDir };
    let root: string;
    try {
      root = resolveWorkspaceRoot({ workspace: hello.workspace, env: {}, cwd: '/' });
    } catch (error) {
      throw new MoorError('WORKSPACE_INVALID', (error as Error).message);
    }
    refuseSystemFolder(root);
    return { root, decisions: hello.decisions };
  };

  const bindingFor = (lease: RoomLease<RoomContents>, sessionKey: string | undefined): Binding => {
    const binding = sessions.roomBinding(lease.room, sessionKey);
    // Without a session there is one workspace: naming another needs a session's connections.
    return {
      ...binding,
      select: async (named) => {
        if (named !== undefined && named !== binding.workspaceRoot)
          throw sessionRequired('The workspace argument');
        return binding;
      },
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
  const checked = new Map<string, string>();
  const httpWorkspace = (workspace: string): string => {
    const cached = checked.get(workspace);
    if (cached !== undefined) return cached;
    const root = policy.check(workspace, { label: 'Moor-Workspace' });
    refuseSystemFolder(root);
    if (checked.size > 1024) checked.clear();
    checked.set(workspace, root);
    return root;
  };

  let http: HttpEndpoint | undefined;
  let httpTokenFile: string | null = null;
  let httpToken: string | null = null;
  // One URI budget for every listen stream of the daemon, socket and HTTP alike.
  const listenBudget = new ListenBudget({
    maxUris: options.listenMaxUris,
    maxMemberships: options.listenMaxMemberships,
    warn: (message) => logger.warn(message),
  });
  const listenOffer = { prompts: catalog.prompts.length > 0, tasks: true };

  // Observability: the gate and the status snapshot exist once the daemon starts; gauges read them then.
  let gate: AdmissionGate | undefined;
  let statusSnapshot: (() => DaemonStatus) | undefined;
  const roomViews = (): RoomView[] =>
    rooms.loaded().map((room) => ({
      root: room.key.root,
      decisions: room.key.decisions ?? null,
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
      tasksByStatus: () => taskCounts(taskList()),
      busDropped: () => bus.droppedMessages ?? 0,
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
    openSession: async (hello) => {
      // The proxy's key is the session: anything a request carries in-band is not read on this hop.
      const connection = await sessions.openConnection(hello.sessionKey, roomKeyOf(hello));
      const factory: McpServerFactory = createServerFactory(catalog, {
        identity: IDENTITY,
        bind: () => connection.binding,
        onInternalError,
        extensions,
      });
      return {
        factory,
        wrapTransport: (transport) => {
          const listens = new ListenTransport(transport, {
            router: catalog.events,
            budget: listenBudget,
            offer: listenOffer,
            audience: () => {
              void openResourceStates(catalog, connection.binding);
              return audienceOf(connection.binding);
            },
            serverInfo: IDENTITY,
            log: (level, message) => logger[level](message),
          });
          return { transport: listens, closeListens: () => listens.closeAll() };
        },
        close: () => connection.close(),
      };
    },
    describe: () => ({
      version: IDENTITY.version,
      httpUrl: http?.url ?? null,
      workspaces: rooms.list().map((r) => ({ root: r.root, connections: r.connections })),
      sessions: sessions.describeSessions(),
      rooms: roomViews().map(roomStatus),
      tasks: tasksStatus(taskList()),
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
      let token = options.http.token;
      if (token === undefined && !options.http.noToken) {
        const stateToken = stateDirToken(paths.dir);
        token = stateToken.token;
        httpTokenFile = stateToken.file;
      }
      httpToken = token ?? null;
      if (token === undefined)
        logger.warn('HTTP without a bearer token (--no-token): every local user can call the tools');
      const { observabilityPages } = await import('../http/pages.js');
      http = await startHttpEndpoint({
        host: options.http.host,
        port: options.http.port,
        ...(token !== undefined ? { token } : {}),
        maxConnections: options.http.maxConnections,
        headersTimeoutMs: options.http.headersTimeoutMs,
        requestTimeoutMs: options.http.requestTimeoutMs,
        catalog,
        identity: IDENTITY,
        incarnation,
        admission: daemon.gate,
        listenBudget,
        tasksServed: true,
        observer: observability.observer,
        pages: observabilityPages({
          ...(metrics !== undefined
            ? { metrics: async () => ({ text: await metrics.text(), contentType: metrics.contentType }) }
            : {}),
          status: statusPageRenderer(daemon.status, roomViews),
          onError: (error, page) => logger.error({ err: error, page }, `http: ${page} failed`),
        }),
        // The lean path carries plain structured tools only (no logs, input rounds or streaming).
        ...(catalog.leanSafe ? {} : { lean: false }),
        extensions,
        bindForRequest: ({ sessionKey, workspace }) => {
          const defaultKey: RoomKey = { root: defaults.root, decisions: defaults.decisionsDir };
          const key: RoomKey = workspace === undefined ? defaultKey : { root: httpWorkspace(workspace) };
          const session = sessionKey ?? options.httpDefaultSession;
          if (session === undefined) return bindingFor(httpRoom(key), undefined);
          // Moor-Workspace names the workspace of this request's calls: a connected one, or else served directly.
          const fallback =
            workspace === undefined
              ? undefined
              : { root: key.root, direct: () => bindingFor(httpRoom(key), session) };
          return sessions.httpBinding(session, defaultKey, fallback);
        },
        onInternalError,
        log: (level, message, fields) => logger[level](fields ?? {}, message),
        logRequests: logger.isLevelEnabled('debug'),
      });
      logger.info({ url: http.url }, `serving HTTP on ${http.url}`);
    },
    onStopped: async () => {
      sessions.close();
      await observability
        .shutdown()
        .catch((error: unknown) => logger.warn({ err: error }, 'exporting the last spans failed'));
      for (const { timer } of httpLeases.values()) clearTimeout(timer);
      httpLeases.clear();
      rooms.closeAll();
      await tasks.close().catch((error: unknown) => logger.warn({ err: error }, 'closing tasks failed'));
      await bus.close();
      await stores.close();
    },
    tasks: (request) => tasksControl(tasks, request),
    sessions: (request) => sessions.control(request),
  };

  const daemon = await startDaemon(config);
  sessions.start();
  logger.info({ testPack, workspace: defaults.root }, `moor ${IDENTITY.version} daemon ready`);
  return {
    daemon,
    logger,
    closeLog: () => log.close(),
    httpUrl: config.describe().httpUrl,
    httpTokenFile,
    httpToken,
    workspace: defaults.root,
  };
}
