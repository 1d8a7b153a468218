import fs from 'node:fs';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { type DaemonConfig, startDaemon } from '../daemon/daemon.js';
import { createDaemonLog, type DaemonLog } from '../daemon/logger.js';
import { isStartRefusal, recordStartRefusal } from '../daemon/start-failure.js';
import type { AdmissionGate } from '../host/admission.js';
import { type CallerScope, type CallWorkspace, Workspace } from '../host/call-scope.js';
import { Catalog } from '../host/catalog.js';
import { audienceOf } from '../host/events/listen.js';
import { ListenBudget } from '../host/events/listen-budget.js';
import { EventRouter } from '../host/events/router.js';
import { ListenTransport } from '../host/events/stdio-listens.js';
import { inputStateCodec } from '../host/input.js';
import { erasePack, type Pack } from '../host/pack.js';
import { openResourceStates, resourceNamer } from '../host/resources.js';
import { createServerFactory } from '../host/server-factory.js';
import type { HttpEndpoint } from '../http/endpoint.js';
import { createDecisionsPack } from '../packs/decisions/pack.js';
import type { DecisionsState } from '../packs/decisions/state.js';
import { createTestingPack } from '../packs/testing/pack.js';
import { createTasksTestPack, TASKS_CONFORMANCE_PACK } from '../packs/testing-tasks/pack.js';
import { HTTP_LISTENER_FD_ENV } from '../protocol/handoff.js';
import type { DaemonStatus, SessionHello } from '../protocol/hello.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { type RoomKey, Rooms, roomId } from '../sessions/rooms.js';
import { createWorkspaceToolsPack } from '../sessions/tools.js';
import { checkedDecisions, createWorkspacePolicy, refuseSystemDefault } from '../sessions/workspace-path.js';
import { createTasksExtension } from '../tasks/extension.js';
import type { DaemonProcess, DaemonRunOptions } from './daemon/daemon-run-types.js';
import { DaemonSessions, type RoomContents } from './daemon/daemon-sessions.js';
import { HttpScopes } from './daemon/http-scopes.js';
import { oneShotAnswers } from './daemon/one-shot-answers.js';

export type { DaemonProcess, DaemonRunOptions } from './daemon/daemon-run-types.js';

import { resolveWorkspace } from './commands/options.js';
import { openDaemonTasks, tasksControl } from './daemon/daemon-tasks.js';
import { stateDirToken } from './daemon/http-token.js';
import { startObservability } from './daemon/observability.js';
import { namedPacks } from './daemon/packs.js';
import { FirstAnswerGate } from './daemon/warm-after-answer.js';
import { IDENTITY, SERVER_PREAMBLE } from './identity.js';
import { type RoomView, roomStatus, taskCounts, tasksStatus } from './status/status-snapshot.js';

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
  // Taken before anything else runs: the environment must not carry it into daemons this one starts.
  const handedListener = takeHandedListener();
  const { logger } = log;
  const testPack = process.env.MOOR_TEST_PACK === '1';
  const policy = createWorkspacePolicy({ allowedRoots: options.allowedRoots });
  const writeRoots = (options.writeRoots ?? []).map((dir) => policy.check(dir, { label: '--allow-writes' }));
  const allowWrites = writeRoots.length > 0;
  // A workspace serves once its records are read; its search index builds meanwhile.
  const decisionsFor = (decisionsDir: string | undefined) =>
    erasePack(createDecisionsPack({ decisionsDir, watch: true, searchIndex: 'background', allowWrites }));
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
  // Daemons sharing a PostgreSQL store seal input rounds with one key: a retry may reach any of them.
  const inputState = stores.postgres && inputStateCodec(stores.postgres.keys.requestState);

  // A root daemon started in (or on) a system folder serves it to nobody: decided once, answered each time.
  let defaultRefusal: unknown;
  try {
    refuseSystemDefault(defaults.root);
  } catch (error) {
    defaultRefusal = error;
  }
  const defaultServable = (): void => {
    if (defaultRefusal !== undefined) throw defaultRefusal;
  };

  // A hello's workspace and decisions pass the rule every other door applies (workspace-path.ts).
  const roomKeyOf = (hello: SessionHello): RoomKey => {
    if (hello.workspace === undefined) {
      defaultServable();
      return { root: defaults.root, decisions: hello.decisions ?? defaults.decisionsDir };
    }
    const root = policy.check(hello.workspace, { label: 'workspace' });
    return { root, decisions: checkedDecisions(policy, root, hello.decisions) };
  };

  // Which scope an HTTP request runs in: the policy for Moor-Session and Moor-Workspace.
  const httpScopes = new HttpScopes({
    rooms,
    sessions,
    policy,
    defaultRoom: { root: defaults.root, decisions: defaults.decisionsDir },
    defaultSession: options.httpDefaultSession,
    defaultServable,
  });

  let http: HttpEndpoint | undefined;
  let httpTokenFile: string | null = null;
  let httpToken: string | null = null;
  // A scope's rooms that are loaded now, as workspaces: where a listen stream's URIs are looked up.
  const loadedRooms = (scope: CallerScope): CallWorkspace[] => {
    const ids = new Set(scope.rooms());
    return rooms
      .loaded()
      .filter((room) => ids.has(roomId(room.key)))
      .map((room) => sessions.roomWorkspace(room));
  };
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
  // Opens at the first answer any socket connection writes.
  const daemonAnswered = new FirstAnswerGate();
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
        scopeFor: () => connection.scope,
        onInternalError,
        extensions,
        inputState,
        onClient: (_scope, client) => sessions.noteClient(hello.sessionKey, client),
      });
      return {
        factory,
        wrapTransport: (transport) => {
          // Loads no call asked for wait until the first answer is out (warm-after-answer.ts).
          const firstAnswer = new FirstAnswerGate();
          firstAnswer.after(connection.warm);
          firstAnswer.after(() => daemonAnswered.open());
          const listens = new ListenTransport(transport, {
            router: catalog.events,
            budget: listenBudget,
            offer: listenOffer,
            // The listen is acknowledged once its room's resources are open, but that load waits for the
            // connection's first answer, so a proxy's listen never holds its tools/list.
            prepare: () =>
              new Promise<void>((resolve) => firstAnswer.after(resolve)).then(() =>
                openResourceStates(catalog, connection.scope),
              ),
            audience: () =>
              audienceOf(connection.scope, resourceNamer(catalog, connection.scope, loadedRooms)),
            serverInfo: IDENTITY,
            log: (level, message) => logger[level](message),
          });
          return { transport: firstAnswer.watch(listens), closeListens: () => listens.closeAll() };
        },
        close: () => connection.close(),
      };
    },
    describe: () => ({
      version: IDENTITY.version,
      httpUrl: http?.url ?? null,
      httpTokenFile,
      workspaces: rooms.list().map((r) => ({ root: r.root, connections: r.connections })),
      sessions: sessions.describeSessions(),
      rooms: roomViews().map(roomStatus),
      tasks: tasksStatus(taskList()),
      observability: { metrics: metrics !== undefined, tracing: observability.tracer !== undefined },
    }),
    ...(observability.observer !== undefined ? { observer: observability.observer } : {}),
    ...(metrics !== undefined ? { metrics: () => metrics.text() } : {}),
    httpListenerFd: () => http?.listenerFd(),
    onStopping: async () => {
      await http?.close(options.graceMs);
    },
    beforeListen: async (daemon) => {
      gate = daemon.gate;
      statusSnapshot = daemon.status;
      const { incarnation } = daemon;
      if (!options.http) {
        if (handedListener !== undefined) fs.closeSync(handedListener);
        return;
      }
      // Loaded only when asked for: a socket-only daemon (what proxies start) starts faster without it.
      const { startHttpEndpoint } = await import('../http/endpoint.js');
      let token = options.http.token;
      if (token === undefined && !options.http.noToken) {
        const stateToken = stateDirToken(paths.dir);
        token = stateToken.token;
        httpTokenFile = stateToken.file;
      }
      httpToken = token ?? null;
      httpTokenFile ??= options.http.tokenFile ?? null;
      if (token === undefined)
        logger.warn('HTTP without a bearer token (--no-token): every local user can call the tools');
      const { observabilityPages } = await import('../http/pages.js');
      // The status page (and dagre, which lays its graph out) is HTTP's alone.
      const { statusPageRenderer } = await import('./status/status-view.js');
      http = await startHttpEndpoint({
        host: options.http.host,
        port: options.http.port,
        inheritedListenerFd: handedListener,
        ...(token !== undefined ? { token } : {}),
        ...(httpTokenFile !== null ? { tokenFile: httpTokenFile } : {}),
        maxConnections: options.http.maxConnections,
        headersTimeoutMs: options.http.headersTimeoutMs,
        requestTimeoutMs: options.http.requestTimeoutMs,
        catalog,
        identity: IDENTITY,
        incarnation,
        admission: daemon.gate,
        listenBudget,
        loadedRooms,
        tasksServed: true,
        observer: observability.observer,
        pages: observabilityPages({
          ...(metrics !== undefined ? { metrics: () => metrics.exposition() } : {}),
          status: statusPageRenderer(daemon.status, roomViews),
          onError: (error, page) => logger.error({ err: error, page }, `http: ${page} failed`),
        }),
        // The lean path carries plain structured tools only (no logs, input rounds or streaming).
        ...(catalog.leanSafe ? {} : { lean: false }),
        extensions,
        inputState,
        scopeForRequest: (request) => httpScopes.scopeForRequest(request),
        onClient: (sessionKey, client) => sessions.noteClient(sessionKey, client),
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
      rooms.closeAll();
      await tasks.close().catch((error: unknown) => logger.warn({ err: error }, 'closing tasks failed'));
      await bus.close();
      await stores.close();
    },
    tasks: (request) => tasksControl(tasks, request),
    sessions: (request) => sessions.control(request),
    oneShot: oneShotAnswers({ rooms, sessions, policy, decisionsPack: catalogDecisions, onInternalError }),
  };

  const daemon = await startDaemon(config);
  // prom-client loads once the daemon's first answer is out (or it sat idle): no request needs
  // it to be answered, and loading it is one synchronous stretch a waiting tools/list would sit behind.
  daemonAnswered.after(() => {
    observability
      .loadMetrics()
      .catch((error: unknown) => logger.error({ err: error }, 'metrics could not be loaded'));
  });
  daemonAnswered.openWhenIdle();
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

/**
 * The HTTP listening socket the daemon before this one handed over, if it did
 * (the environment names its descriptor). Read once and removed, so that no
 * daemon this one starts later takes its own fd 3 for a socket.
 */
function takeHandedListener(): number | undefined {
  const named = process.env[HTTP_LISTENER_FD_ENV];
  delete process.env[HTTP_LISTENER_FD_ENV];
  if (named === undefined) return undefined;
  const fd = Number.parseInt(named, 10);
  return Number.isSafeInteger(fd) && fd > 2 ? fd : undefined;
}
