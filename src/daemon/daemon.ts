/**
 * A running daemon: the socket server, the admission gate and graceful
 * shutdown. The caller (src/app/daemon.ts) already holds the state dir's lock
 * and supplies the session factory; this file knows nothing of packs.
 *
 * Shutdown (SIGTERM, SIGINT, a control 'stop', a control 'handoff' from a
 * newer moor): stop admitting (new requests
 * get -32051), stop accepting connections, let in-flight requests finish
 * within the grace period, answer the rest with -32051 "daemon shutting down",
 * end listen streams gracefully, close every socket, remove the socket file and
 * the incarnation, release the lock. A handoff is the same shutdown: its
 * proxies reconnect (and replay) to the daemon the newer moor starts once
 * the lock is free.
 */
import { AdmissionGate } from '../host/admission.js';
import type { RequestObserver } from '../observe/observer.js';
import { clearHandoffMarker, writeHandoffMarker } from '../protocol/handoff.js';
import type {
  DaemonStatus,
  Incarnation,
  SessionHello,
  SessionsControlReply,
  SessionsControlRequest,
  TasksControlReply,
  TasksControlRequest,
} from '../protocol/hello.js';
import type { OneShotReply, OneShotRequest } from '../protocol/one-shot-hello.js';
import { clearStartRefusal } from '../protocol/start-refusal.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { IdleCollector } from './idle-gc.js';
import type { DaemonLog } from './logger.js';
import { type DescribedStatus, type SessionOpening, SocketServer } from './server.js';
import { removeIncarnation, writeIncarnation } from './state.js';
import { beginSuccession, type Successor } from './successor.js';

export { DEFAULT_GRACE_MS } from './defaults.js';

export interface DaemonConfig {
  readonly paths: StatePaths;
  readonly version: string;
  readonly maxInFlight: number;
  readonly graceMs: number;
  readonly log: DaemonLog;
  /** Releases the state dir's lock (called last). */
  readonly releaseLock: () => void;
  openSession(hello: SessionHello): SessionOpening | Promise<SessionOpening>;
  describe(): DescribedStatus;
  /** Observes every socket request (metrics, tracing). */
  readonly observer?: RequestObserver;
  /** The Prometheus text for `moor daemon metrics`; absent when metrics are off. */
  metrics?(): Promise<string>;
  /** Runs after every connection closed (rooms, HTTP). */
  onStopped?(): Promise<void> | void;
  /** The HTTP listening socket's descriptor, which a handoff hands to the successor it starts. */
  httpListenerFd?(): number | undefined;
  /** Runs when shutdown begins, while in-flight requests drain (e.g. stop the HTTP listener admitting). */
  onStopping?(): Promise<void> | void;
  /** Answers `moor tasks …` control hellos. */
  tasks?(request: TasksControlRequest): TasksControlReply | Promise<TasksControlReply>;
  /** Answers `moor sessions …` control hellos. */
  sessions?(request: SessionsControlRequest): Promise<SessionsControlReply>;
  /** Answers one-shot `moor decisions …` commands (one read-only tool call each). */
  oneShot?(request: OneShotRequest): Promise<OneShotReply>;
  /** Runs before the socket listens (e.g. start HTTP), so a daemon that answers is fully up. */
  beforeListen?(daemon: {
    readonly incarnation: Incarnation;
    readonly gate: AdmissionGate;
    /** The status snapshot `moor daemon status` answers (for the HTTP status page). */
    readonly status: () => DaemonStatus;
  }): Promise<void>;
}

export interface RunningDaemon {
  readonly incarnation: Incarnation;
  readonly gate: AdmissionGate;
  readonly socket: SocketServer;
  shutdown(reason: string): Promise<void>;
  /** Resolves when shutdown has finished. */
  readonly stopped: Promise<void>;
}

export async function startDaemon(config: DaemonConfig): Promise<RunningDaemon> {
  const { logger } = config.log;
  const incarnation: Incarnation = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    version: config.version,
  };
  const gate = new AdmissionGate(config.maxInFlight);
  let resolveStopped: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });
  let shuttingDown: Promise<void> | undefined;
  /** Set by a handoff: who serves next, seen up before this process ends. */
  let successor: Successor | undefined;
  const idle = new IdleCollector(() => gate.inFlight > 0);

  const socket = new SocketServer({
    socketPath: config.paths.socket,
    incarnation,
    gate,
    log: logger,
    openSession: (hello) => config.openSession(hello),
    describe: () => config.describe(),
    onStopRequested: () => {
      void shutdown('control stop');
    },
    onHandoffRequested: (version, binary) => {
      logger.info(
        { from: config.version, to: version, connectedClients: socket.connectedClients },
        `handing over to moor ${version}: in-flight requests finish, then clients reconnect to it`,
      );
      // Before any connection closes: its proxy must find the marker and leave the start to the newer one.
      writeHandoffMarker(config.paths.dir, {
        pid: process.pid,
        from: config.version,
        to: version,
        at: Date.now(),
        startsSuccessor: true,
      });
      successor = beginSuccession({
        paths: config.paths,
        log: (message) => logger.warn(message),
        ...(binary ? { binary, httpListenerFd: config.httpListenerFd?.() } : {}),
      });
      void shutdown(`handoff to moor ${version}`);
    },
    onRequestFinished: () => idle.served(),
    ...(config.tasks ? { tasks: config.tasks } : {}),
    ...(config.observer ? { observer: config.observer } : {}),
    ...(config.metrics ? { metrics: config.metrics } : {}),
    ...(config.sessions ? { sessions: config.sessions } : {}),
    ...(config.oneShot ? { oneShot: config.oneShot } : {}),
  });

  const shutdown = (reason: string): Promise<void> => {
    shuttingDown ??= (async () => {
      logger.info({ reason, inFlight: gate.inFlight }, `shutting down (${reason})`);
      const draining = gate.close(config.graceMs);
      socket.stopAccepting();
      await config.onStopping?.();
      const drained = await draining;
      if (!drained)
        logger.warn(
          { inFlight: gate.inFlight },
          'grace period over: interrupting the requests still running',
        );
      await socket.closeSessions('daemon shutting down');
      idle.stop();
      await config.onStopped?.();
      socket.removeSocketFile();
      removeIncarnation(config.paths.incarnation, process.pid);
      config.releaseLock();
      await successor?.settled();
      logger.info('stopped');
      resolveStopped();
    })();
    return shuttingDown;
  };

  await config.beforeListen?.({ incarnation, gate, status: () => socket.status() });
  try {
    await socket.listen();
  } catch (error) {
    await config.onStopping?.();
    throw error;
  }
  writeIncarnation(config.paths.incarnation, incarnation);
  clearStartRefusal(config.paths.startRefusal);
  clearHandoffMarker(config.paths.dir);
  logger.info({ socket: config.paths.socket, version: config.version }, 'daemon listening');
  return { incarnation, gate, socket, shutdown, stopped };
}
