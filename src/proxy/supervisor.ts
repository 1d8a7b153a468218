/**
 * Keeping a daemon there: connect with backoff, start the daemon when none
 * answers (at most RESTART_BUDGET failed starts per RESTART_WINDOW_MS), give a
 * started daemon START_WAIT_MS to answer, and wait once, longer, for a live
 * daemon that holds the lock while it drains. A daemon older than this
 * proxy is asked to hand over first (upgrade.ts). What happens to the client's
 * requests is the host's business; the supervisor only tells it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MoorError } from '../errors.js';
import { connectDaemon, type DaemonLink, type LinkOutcome, spawnDaemon } from '../protocol/daemon-link.js';
import type { SessionHello } from '../protocol/hello.js';
import { isAliveProcess, liveLockOwner } from '../protocol/process-liveness.js';
import { readStartRefusal } from '../protocol/start-refusal.js';
import type { StatePaths } from '../protocol/state-dir.js';
import { DaemonUpgrade } from './upgrade.js';

export const BACKOFF_START_MS = 50;
export const BACKOFF_MAX_MS = 2000;
/** How long one started daemon has to answer. */
export const START_WAIT_MS = 5000;
/** How much longer to wait for a live daemon that holds the lock but no longer answers (a draining one). */
export const DRAIN_WAIT_MS = 12_000;
export const RESTART_BUDGET = 5;
export const RESTART_WINDOW_MS = 30_000;

export interface SupervisorOptions {
  readonly paths: StatePaths;
  readonly hello: SessionHello;
  /** One line for the user (stderr). */
  readonly warn: (line: string) => void;
  /** Starts the daemon (default: `moor daemon run` detached); returns its pid when known. */
  readonly spawn?: (() => number | undefined) | undefined;
  /** How long one started daemon has to answer (default START_WAIT_MS). */
  readonly startWaitMs?: number | undefined;
  /** Connects and says hello (default: connectDaemon on the state dir's socket). */
  readonly connect?: ((socketPath: string, hello: SessionHello) => Promise<LinkOutcome>) | undefined;
}

/**
 * The starts this proxy made that no daemon has answered since. A start is a
 * failure only until some daemon answers (the one it started, or one another
 * proxy started that won the lock): then the count starts over. Many proxies
 * sharing a daemon that is killed over and over each start one every time;
 * none of those starts failed.
 */
export class RestartBudget {
  #starts: number[] = [];

  recordStart(now: number): void {
    this.#starts.push(now);
  }

  /** A daemon answered: every start so far did its job. */
  answered(): void {
    this.#starts = [];
  }

  allows(now: number): boolean {
    this.#starts = this.#starts.filter((t) => now - t < RESTART_WINDOW_MS);
    return this.#starts.length < RESTART_BUDGET;
  }
}

/** What the supervisor tells the relay it works for. */
export interface SupervisorHost {
  /** The relay has shut: stop trying. */
  isClosed(): boolean;
  /** A daemon answered the hello. */
  connected(link: DaemonLink): void;
  /** The daemon refused this session (already warned): retrying will not help. */
  refused(message: string): void;
  /** Everything owed an answer must get `message` (already warned): the start failed. */
  failAll(message: string): void;
  /** The restart budget is spent (already warned): answer `message` until it refills. */
  down(message: string): void;
  /** This supervisor has just started a daemon (the state dir took its log): it is on its way. */
  started?(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Resolves when the socket file appears in `dir` (inotify where available), or after `ms`. */
function socketOrTimeout(dir: string, socketName: string, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let watcher: fs.FSWatcher | undefined;
    const done = () => {
      clearTimeout(timer);
      watcher?.close();
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    try {
      watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (name === socketName) done();
      });
      watcher.on('error', () => {});
    } catch {
      // no watching here: the timeout alone paces the polls
    }
  });
}

export class DaemonSupervisor {
  readonly #options: SupervisorOptions;
  readonly #host: SupervisorHost;
  readonly #startWaitMs: number;
  readonly #budget = new RestartBudget();
  readonly #upgrade: DaemonUpgrade;
  /** The pid of the daemon this relay last started. */
  #spawned: number | undefined;
  #connecting: Promise<void> | undefined;

  constructor(options: SupervisorOptions, host: SupervisorHost) {
    this.#options = options;
    this.#host = host;
    this.#startWaitMs = options.startWaitMs ?? START_WAIT_MS;
    this.#upgrade = new DaemonUpgrade({
      paths: options.paths,
      version: options.hello.client.version,
      warn: options.warn,
    });
  }

  /** Connects (one loop at a time); resolves once connected, refused, down or closed. */
  connect(): Promise<void> {
    this.#connecting ??= this.#connectLoop().finally(() => {
      this.#connecting = undefined;
      this.#upgrade.reset();
    });
    return this.#connecting;
  }

  budgetAllows(now = Date.now()): boolean {
    return this.#budget.allows(now);
  }

  downMessage(): string {
    return `moor: the daemon could not be started (${RESTART_BUDGET} attempts in ${RESTART_WINDOW_MS / 1000} s); see ${this.#options.paths.log}. Retry later, or run \`moor stdio --direct\`.`;
  }

  /** Starts a daemon; returns why it cannot be started when the state dir itself is the problem. */
  #spawn(): string | undefined {
    this.#budget.recordStart(Date.now());
    const { spawn, paths } = this.#options;
    try {
      this.#spawned = spawn ? spawn() : spawnDaemon(paths);
      return undefined;
    } catch (error) {
      if (error instanceof MoorError && error.code === 'STATE_DIR_UNUSABLE') return error.message;
      throw error;
    }
  }

  /** What the daemon we started said before it refused to start, if it left word. */
  #startRefusal(): string | undefined {
    if (this.#spawned === undefined) return undefined;
    return readStartRefusal(this.#options.paths.startRefusal, this.#spawned)?.message;
  }

  /** The daemon we started died (or lost the lock and exited) and no live daemon holds the lock. */
  #startFailedEarly(): boolean {
    if (this.#spawned === undefined || isAliveProcess(this.#spawned)) return false;
    return liveLockOwner(this.#options.paths.lock) === undefined;
  }

  async #connectLoop(): Promise<void> {
    const { paths, hello, warn } = this.#options;
    const startWaitMs = this.#startWaitMs;
    let delay = BACKOFF_START_MS;
    let spawnedAt: number | undefined;
    let waitLimit = startWaitMs;
    for (;;) {
      if (this.#host.isClosed()) return;
      const outcome = await (this.#options.connect ?? connectDaemon)(paths.socket, hello);
      if (this.#host.isClosed()) {
        if (outcome.kind === 'connected') outcome.link.socket.destroy();
        return;
      }
      if (outcome.kind === 'connected') {
        if (await this.#upgrade.replaces(outcome.link.incarnation)) {
          // An older daemon handing over: come back once it is gone and start this version.
          outcome.link.socket.destroy();
          await sleep(BACKOFF_START_MS);
          continue;
        }
        if (this.#host.isClosed()) {
          outcome.link.socket.destroy();
          return;
        }
        this.#budget.answered();
        this.#host.connected(outcome.link);
        return;
      }
      if (outcome.kind === 'refused') {
        const message = `moor: the daemon refused this session: ${outcome.message}`;
        warn(message);
        this.#host.refused(message);
        return;
      }
      if (this.#upgrade.holdsStart()) {
        await sleep(BACKOFF_START_MS);
        continue;
      }
      const now = Date.now();
      // A daemon we started that is already gone (killed, crashed) is not waited for: start another.
      if (spawnedAt !== undefined && now - spawnedAt < waitLimit && this.#startFailedEarly()) {
        // A refusal starting again cannot cure (a corrupt store, say): stop, and say the daemon's own words.
        const refusal = this.#startRefusal();
        if (refusal !== undefined) {
          const message = `moor: the daemon refuses to start: ${refusal}`;
          warn(message);
          this.#host.refused(message);
          return;
        }
        spawnedAt = undefined;
      }
      if (spawnedAt !== undefined && now - spawnedAt >= waitLimit && waitLimit === startWaitMs) {
        // The lock is held by a live daemon that does not answer: most likely one finishing a graceful
        // shutdown (its grace period). Wait for it once, longer, before calling the start a failure.
        const holder = liveLockOwner(paths.lock);
        if (holder !== undefined && holder !== this.#spawned) {
          warn(`moor: waiting for the daemon (pid ${holder}) to finish shutting down`);
          waitLimit = startWaitMs + DRAIN_WAIT_MS;
        }
      }
      if (spawnedAt === undefined || now - spawnedAt >= waitLimit) {
        if (spawnedAt !== undefined) {
          const message = `moor: the daemon did not answer within ${Math.round((now - spawnedAt) / 1000)} s of starting; see ${paths.log}`;
          warn(message);
          this.#host.failAll(message);
        }
        waitLimit = startWaitMs;
        if (!this.budgetAllows(now)) {
          warn(this.downMessage());
          this.#host.down(this.downMessage());
          return;
        }
        const unusable = this.#spawn();
        if (unusable !== undefined) {
          const message = `moor: ${unusable}`;
          warn(message);
          this.#host.refused(message);
          return;
        }
        spawnedAt = Date.now();
        this.#host.started?.();
        await this.#waitForSocket(BACKOFF_START_MS);
        continue;
      }
      // A daemon we started is on its way: look as soon as its socket appears. Otherwise back off.
      if (spawnedAt !== undefined) await this.#waitForSocket(BACKOFF_START_MS);
      else await sleep(delay);
      delay = Math.min(delay * 2, BACKOFF_MAX_MS);
    }
  }

  #waitForSocket(ms: number): Promise<void> {
    const { socket } = this.#options.paths;
    return socketOrTimeout(path.dirname(socket), path.basename(socket), ms);
  }
}
