/**
 * The task runtime: creates tasks durably, runs their work in the
 * background, turns progress into the status message and input requests
 * into `input_required`, answers tasks/get|update|cancel, and sweeps expired
 * rows. The store holds what a client can read; this service only what
 * cannot be stored (runtime.ts). Leases, and tasks/cancel|update for a task
 * another daemon runs, are peers.ts's; input rounds and cancelling a task
 * that runs here are input-rounds.ts's and cancellation.ts's.
 *
 * Creates commit before create() resolves (the CreateTaskResult follows).
 * Completions are grouped (completions.ts), and every read or command
 * commits what is waiting first: a task is never reported finished before
 * its row says so, and a crash can only lose a result no client has seen
 * (the task then reads failed "interrupted", as if the crash had come a
 * moment earlier). A completion the store cannot take yet is kept and
 * retried, and its task's lease stays renewed as if it still ran, so no
 * peer fails it "interrupted" meanwhile.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { isMoorError, JsonRpcCode } from '../errors.js';
import { type ClusterBus, type ClusterMessage, localBus } from '../events/bus.js';
import { protocolError } from '../host/protocol-error.js';
import { TASKS_EXTENSION_ID } from '../protocol/constants.js';
import { captureTrace } from '../protocol/trace-scope.js';
import type { TaskFinish, TaskRecord, TaskStore } from '../store/task-store.js';
import { RUNNING_STATUSES } from '../store/task-store.js';
import { cancelHere } from './cancellation.js';
import { CompletionWriter } from './completions.js';
import { DEFAULT_CLOSE_FLUSH_MS, DEFAULT_LEASE_MS, DEFAULT_RETENTION_MS } from './defaults.js';
import { answerInput, requestInput } from './input-rounds.js';
import { TaskPeers } from './peers.js';
import { Runtime } from './runtime.js';
import type { StartOptions, TaskServiceOptions, TaskWorkEnvironment, TaskWriter } from './service-types.js';
import { detailedTask, newTaskId, taskNotFound, toTaskError } from './wire.js';

export type { CancellationPolicy } from './runtime.js';
export type { StartOptions, TaskServiceOptions, TaskWorkEnvironment } from './service-types.js';
export {
  createTaskFields,
  createTaskResult,
  newTaskId,
  taskNotFound,
  toTaskError,
} from './wire.js';

export const TASKS_EXTENSION = TASKS_EXTENSION_ID;
export { RESULT_NOT_KEPT_MESSAGE } from './completions.js';
export { INTERRUPTED_MESSAGE, LEASE_EXPIRED_MESSAGE } from './peers.js';
export const SHUTDOWN_MESSAGE = 'Task interrupted: the daemon shut down';
export { DEFAULT_LEASE_MS, DEFAULT_RETENTION_MS };
export const DEFAULT_POLL_INTERVAL_MS = 500;
export { ABORT_GRACE_MS } from './cancellation.js';

interface Settled {
  readonly runtime: Runtime;
  readonly outcome: { result?: unknown; error?: unknown };
}

export class TaskService {
  readonly store: TaskStore;
  readonly incarnation: string;
  readonly bus: ClusterBus;
  readonly retentionMs: number;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  /** Resolves with how many tasks the start failed "interrupted" (a previous daemon's). */
  readonly ready: Promise<number>;
  readonly #now: () => number;
  readonly #options: TaskServiceOptions;
  readonly #runtimes = new Map<string, Runtime>();
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #peers: TaskPeers;
  /** The row writes input-rounds.ts and cancellation.ts make for the tasks running here. */
  readonly #writer: TaskWriter;
  #closed = false;
  readonly #completions: CompletionWriter<Settled>;
  /** Tasks the start failed "interrupted" (0 until `ready`). */
  interruptedAtStart = 0;

  constructor(options: TaskServiceOptions) {
    this.#options = options;
    this.store = options.store;
    this.incarnation = options.incarnation;
    this.bus = options.bus ?? localBus(options.incarnation);
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#now = options.now ?? Date.now;
    this.#writer = {
      store: this.store,
      now: this.#now,
      changed: (id) => this.#changed(id),
      background: (work, failure) => this.#background(work, failure),
    };
    this.#completions = new CompletionWriter<Settled>({
      store: this.store,
      now: this.#now,
      idOf: ({ runtime }) => runtime.id,
      unwrittenResultBytes: options.unwrittenResultBytes,
      toFinish: ({ runtime, outcome }) => this.#finishOf(runtime, outcome),
      committed: ({ runtime }, applied, finish) => {
        if (applied) this.#changed(runtime.id);
        else if (!runtime.cancelRequested)
          options.log?.(
            finish.status === 'failed'
              ? 'a task failed after it had ended'
              : 'a task result arrived after it had ended; dropped',
            { task: runtime.id },
          );
      },
      withoutResult: ({ runtime }) => ({ runtime, outcome: {} }),
      log: options.log,
    });
    this.#peers = new TaskPeers({
      store: this.store,
      incarnation: this.incarnation,
      leaseMs: this.leaseMs,
      bus: this.bus,
      now: this.#now,
      runtime: (id) => this.#runtimes.get(id),
      // A task whose completion is not written yet still reads "working": its lease is still ours.
      runningIds: () => [...this.#runtimes.keys(), ...this.#completions.unwrittenIds()],
      cancelHere: (runtime) => cancelHere(runtime, this.#writer),
      answer: (runtime, responses) => answerInput(runtime, responses, this.#writer),
      changed: (id) => this.#changed(id),
      changedElsewhere: (id) => options.onStatusChange?.(id, 'remote'),
      background: (work, failure) => this.#background(work, failure),
    });
    this.ready = this.#start();
    this.ready.catch(() => {}); // awaited by every call; a failure surfaces there
    const sweepEvery = options.sweepIntervalMs ?? Math.min(this.retentionMs, 60_000);
    if (sweepEvery > 0) this.#every(sweepEvery, () => this.store.sweep(this.#now()), 'task sweep failed');
    this.#every(
      Math.max(1, Math.floor(this.leaseMs / 3)),
      () => this.checkLeases(),
      'task lease check failed',
    );
  }

  async #start(): Promise<number> {
    const interrupted = await this.#peers.interruptAtStart();
    await this.store.sweep(this.#now());
    this.interruptedAtStart = interrupted.length;
    return interrupted.length;
  }

  #every(ms: number, tick: () => Promise<unknown>, failure: string): void {
    const timer = setInterval(() => this.#background(tick(), failure), ms);
    timer.unref();
    this.#timers.push(timer);
  }

  #background(work: Promise<unknown>, failure: string): void {
    work.catch((error: unknown) => this.#options.log?.(failure, { error: (error as Error)?.message }));
  }

  get running(): number {
    return this.#runtimes.size;
  }

  /** The tasks that finished here whose completion the store has not taken yet. */
  unwrittenCompletions(): string[] {
    return this.#completions.unwrittenIds();
  }

  /** Creates a working task owned by `ownerKey`; committed when the promise resolves. */
  async create(ownerKey: string, tool: string, statusMessage?: string): Promise<TaskRecord> {
    if (this.#closed) throw protocolError('TASKS_CLOSED', 'moor is shutting down');
    await this.ready;
    const now = this.#now();
    return this.store.create({
      id: newTaskId(),
      ownerKey,
      tool,
      statusMessage,
      createdAt: now,
      retentionMs: this.retentionMs,
      pollIntervalMs: this.pollIntervalMs,
      leaseOwner: this.incarnation,
      leaseExpiresAt: now + this.leaseMs,
    });
  }

  /**
   * Runs `work` in the background for a created task. Its CallToolResult
   * (tool errors included) completes the task; a thrown JSON-RPC error fails
   * it with that error; anything else fails it as an internal error.
   */
  start(task: TaskRecord, options: StartOptions, work: (env: TaskWorkEnvironment) => Promise<unknown>): void {
    const runtime = new Runtime(
      task.id,
      task.tool,
      options.cancellation,
      task.statusMessage,
      options.preAnswered ?? {},
    );
    this.#runtimes.set(task.id, runtime);
    const env: TaskWorkEnvironment = {
      taskId: task.id,
      signal: runtime.controller.signal,
      progress: (progress, total, message) => this.#progress(runtime, progress, total, message),
      requestInput: (requests) => requestInput(runtime, requests, this.#writer),
    };
    // The work keeps the trace of the call that created the task, however long it runs.
    const inCallerTrace = captureTrace();
    setImmediate(() =>
      inCallerTrace(() => {
        let settled: Promise<unknown>;
        try {
          settled = Promise.resolve(work(env));
        } catch (error) {
          settled = Promise.reject(error);
        }
        settled.then(
          (result) => this.#settle(runtime, { result }),
          (error: unknown) => this.#settle(runtime, { error }),
        );
      }),
    );
  }

  #settle(runtime: Runtime, outcome: { result?: unknown; error?: unknown }): void {
    this.#runtimes.delete(runtime.id);
    // Plain on purpose: the work has settled already, so nothing waits on what it makes of this.
    runtime.rejectOutstanding(new Error('task finished'));
    this.#completions.add({ runtime, outcome });
  }

  #finishOf(runtime: Runtime, outcome: { result?: unknown; error?: unknown }): TaskFinish {
    // Whatever the work did after the cancel, the client asked for it to stop: it ends cancelled.
    if (runtime.cancelRequested)
      return { id: runtime.id, status: 'cancelled', payload: { statusMessage: 'Cancelled.' } };
    if ('error' in outcome && outcome.error !== undefined) {
      const error = toTaskError(outcome.error);
      if (error.code === JsonRpcCode.InternalError && !(outcome.error instanceof ProtocolError))
        this.#options.onInternalError?.(outcome.error, runtime.tool);
      return { id: runtime.id, status: 'failed', payload: { error, statusMessage: error.message } };
    }
    const isError = (outcome.result as { isError?: unknown } | undefined)?.isError === true;
    return {
      id: runtime.id,
      status: 'completed',
      payload: {
        result: outcome.result,
        statusMessage: isError ? 'Completed with a tool error.' : 'Completed.',
      },
    };
  }

  /** After a status write of ours: tell this daemon's listeners and the other daemons. */
  #changed(taskId: string): void {
    this.#options.onStatusChange?.(taskId, 'local');
    if (this.bus.clustered) this.#publish({ kind: 'task-status', taskId });
  }

  #publish(message: ClusterMessage): void {
    this.#background(this.bus.publish(message), 'cluster bus publish failed');
  }

  async #progress(runtime: Runtime, progress: number, total?: number, message?: string): Promise<void> {
    const text = message ?? (total === undefined ? `${progress}` : `${progress}/${total}`);
    if (text === runtime.lastMessage || !this.#runtimes.has(runtime.id)) return;
    runtime.lastMessage = text;
    if (runtime.outstanding.size > 0) return; // waiting on input: the status stays input_required
    let written: boolean;
    try {
      written = await this.store.setWorking(runtime.id, text, this.#now());
    } catch (error) {
      // A status message is a hint: the work goes on without it, and its next one says more.
      if (isMoorError(error) && error.code === 'STORE_UNAVAILABLE') return;
      throw error;
    }
    if (written) this.#changed(runtime.id);
  }

  /** The task if `ownerKey` owns it and it has not expired; else the not-found error. */
  async get(taskId: unknown, ownerKey: string | undefined): Promise<TaskRecord> {
    if (typeof taskId !== 'string' || ownerKey === undefined) throw taskNotFound(taskId);
    await this.ready;
    await this.#completions.flush();
    const task = await this.store.get(taskId, this.#now());
    if (task === undefined || task.ownerKey !== ownerKey) throw taskNotFound(taskId);
    return task;
  }

  async list(ownerKey: string | undefined): Promise<TaskRecord[]> {
    await this.ready;
    await this.#completions.flush();
    return this.store.list(ownerKey, this.#now());
  }

  /** tasks/update: answers outstanding input; unknown or already answered keys are ignored. */
  async update(
    taskId: unknown,
    ownerKey: string | undefined,
    responses: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const task = await this.get(taskId, ownerKey);
    const runtime = this.#runtimes.get(task.id);
    if (runtime !== undefined) return answerInput(runtime, responses, this.#writer);
    if (task.status === 'input_required' && this.#peers.runsElsewhere(task, this.#now()))
      await this.bus.publish({ kind: 'task-input', taskId: task.id, leaseOwner: task.leaseOwner, responses });
  }

  /** tasks/cancel: cooperative; a terminal task is acknowledged unchanged. */
  async cancel(taskId: unknown, ownerKey: string | undefined): Promise<void> {
    const task = await this.get(taskId, ownerKey);
    if (!RUNNING_STATUSES.has(task.status)) return;
    const runtime = this.#runtimes.get(task.id);
    if (runtime !== undefined) return cancelHere(runtime, this.#writer);
    const now = this.#now();
    if (this.#peers.runsElsewhere(task, now)) {
      // Recorded first: the running daemon also finds it when it renews its lease, should the message be lost.
      await this.store.requestCancel(task.id, now);
      await this.bus.publish({ kind: 'task-cancel', taskId: task.id, leaseOwner: task.leaseOwner });
      return;
    }
    // No work runs it any more (its daemon stopped): the cancellation is all there is to do.
    if (await this.store.finish(task.id, 'cancelled', { statusMessage: 'Cancelled.' }, now))
      this.#changed(task.id);
  }

  /**
   * Renews the leases of the tasks running here (and picks up cancellations
   * recorded in their rows), then fails other daemons' running tasks whose
   * lease has expired. Runs every third of the lease.
   */
  async checkLeases(): Promise<void> {
    if (this.#closed) return;
    await this.ready;
    try {
      // Kept completions first: written, their tasks need no lease (and a down store fails both alike).
      await this.#completions.flush();
      await this.#peers.checkLeases();
    } catch (error) {
      if (isMoorError(error) && error.code === 'STORE_UNAVAILABLE') this.#peers.storeUnreachable();
      throw error;
    }
  }

  /** The DetailedTask for tasks/get. */
  detailed(task: TaskRecord): Record<string, unknown> {
    return detailedTask(task);
  }

  /**
   * Stops the timers; tries once more, briefly, to write the completions the
   * store has not taken (and logs those it still has not); fails the tasks
   * still running (their work is aborted).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#peers.close();
    await this.ready.catch(() => {});
    await this.#completions.close(this.#options.closeFlushMs ?? DEFAULT_CLOSE_FLUSH_MS);
    const runtimes = [...this.#runtimes.values()];
    this.#runtimes.clear();
    const error = { code: JsonRpcCode.InternalError, message: SHUTDOWN_MESSAGE };
    const finishes = runtimes.map((r) => ({
      id: r.id,
      status: 'failed' as const,
      payload: { error, statusMessage: SHUTDOWN_MESSAGE },
    }));
    try {
      const applied = await this.store.finishMany(finishes, this.#now());
      runtimes.forEach((r, i) => {
        if (applied[i]) this.#changed(r.id);
      });
    } finally {
      for (const runtime of runtimes) {
        runtime.controller.abort(protocolError('TASK_STOPPED', SHUTDOWN_MESSAGE));
        runtime.rejectOutstanding(runtime.controller.signal.reason);
      }
    }
  }
}
