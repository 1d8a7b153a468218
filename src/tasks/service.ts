/**
 * The task runtime: creates tasks durably, runs their work in the
 * background, turns progress into the status message and input requests
 * into `input_required`, answers tasks/get|update|cancel, fails what a
 * previous daemon left running, and sweeps expired rows.
 *
 * The store holds what a client can read; this service holds only what
 * cannot be stored: the work's AbortController and the input requests a
 * running handler is waiting on. A task whose runtime is gone (the daemon
 * restarted) was failed "interrupted" at start.
 *
 * Creates commit before create() returns (the CreateTaskResult follows).
 * Completions are grouped: the terminal writes of one event-loop turn are
 * committed in one transaction on the next (setImmediate), and every read or
 * command (get, list, update, cancel, close) commits what is waiting first.
 * So a task is never reported finished before its row says so, and a crash
 * can only lose a result no client has seen (the task then reads failed
 * "interrupted", as if the crash had come a moment earlier).
 */
import { randomBytes } from 'node:crypto';
import type { InputRequest, InputResponse } from '@modelcontextprotocol/server';
import { ProtocolError } from '@modelcontextprotocol/server';
import { JsonRpcCode } from '../errors.js';
import { protocolError } from '../host/protocol-error.js';
import { TASKS_EXTENSION_ID } from '../protocol/constants.js';
import { captureTrace } from '../protocol/trace-scope.js';
import type { TaskError, TaskRecord, TaskStore } from '../store/task-store.js';
import { RUNNING_STATUSES, ttlMsOf } from '../store/task-store.js';
import { DEFAULT_RETENTION_MS } from './defaults.js';

export const TASKS_EXTENSION = TASKS_EXTENSION_ID;
export const INTERRUPTED_MESSAGE = 'Task interrupted: the daemon restarted';
export const SHUTDOWN_MESSAGE = 'Task interrupted: the daemon shut down';
export { DEFAULT_RETENTION_MS };
export const DEFAULT_POLL_INTERVAL_MS = 500;
/** How long an aborted task may take to stop before it is reported cancelled anyway. */
export const ABORT_GRACE_MS = 2_000;

export type CancellationPolicy = 'abort' | 'detach';

/** What the work of a task gets from the runtime. */
export interface TaskWorkEnvironment {
  readonly taskId: string;
  /** Aborts on tasks/cancel under the 'abort' policy, and at daemon shutdown. */
  readonly signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): Promise<void>;
  requestInput(requests: Readonly<Record<string, InputRequest>>): Promise<Record<string, InputResponse>>;
}

export interface StartOptions {
  readonly cancellation: CancellationPolicy;
  /** Answers gathered before the task existed (multi-round-trip rounds on the tools/call). */
  readonly preAnswered?: Readonly<Record<string, InputResponse>>;
}

export interface TaskServiceOptions {
  readonly store: TaskStore;
  /** Identifies this daemon run in the rows it writes. */
  readonly incarnation: string;
  readonly retentionMs?: number;
  readonly pollIntervalMs?: number;
  /** How often expired rows are deleted (default: min(retention, 60 s)); 0 disables. */
  readonly sweepIntervalMs?: number;
  readonly now?: () => number;
  /** Unexpected failures of task work (never stdout). */
  onInternalError?(error: unknown, tool: string): void;
  log?(message: string, fields?: Record<string, unknown>): void;
}

interface Waiting {
  readonly key: string;
  readonly request: InputRequest;
  readonly batch: Batch;
}

interface Batch {
  readonly answers: Record<string, InputResponse>;
  remaining: number;
  resolve(answers: Record<string, InputResponse>): void;
  reject(error: unknown): void;
}

interface Runtime {
  readonly id: string;
  readonly tool: string;
  readonly policy: CancellationPolicy;
  readonly controller: AbortController;
  cancelRequested: boolean;
  readonly outstanding: Map<string, Waiting>;
  readonly usedKeys: Set<string>;
  readonly preAnswered: Map<string, InputResponse>;
  lastMessage: string | null | undefined;
}

/** The wire error for an unknown, expired or foreign task: one shape for all three. */
export function taskNotFound(taskId: unknown): ProtocolError {
  return protocolError(
    'TASK_NOT_FOUND',
    `No task ${typeof taskId === 'string' ? JSON.stringify(taskId.slice(0, 200)) : ''}: it does not exist or has expired.`.replace(
      'task : ',
      'task: ',
    ),
  );
}

/** Task ids: 144 bits from the OS CSPRNG, base64url. */
export function newTaskId(): string {
  return randomBytes(18).toString('base64url');
}

export class TaskService {
  readonly store: TaskStore;
  readonly incarnation: string;
  readonly retentionMs: number;
  readonly pollIntervalMs: number;
  readonly #now: () => number;
  readonly #options: TaskServiceOptions;
  readonly #runtimes = new Map<string, Runtime>();
  readonly #sweeper: NodeJS.Timeout | undefined;
  #closed = false;
  /** Terminal writes waiting for the next group commit. */
  #finishes: Array<() => void> = [];
  #flushScheduled = false;
  /** Tasks the last start failed "interrupted". */
  readonly interruptedAtStart: number;

  constructor(options: TaskServiceOptions) {
    this.#options = options;
    this.store = options.store;
    this.incarnation = options.incarnation;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.#now = options.now ?? Date.now;
    const now = this.#now();
    this.interruptedAtStart = this.store.interruptOthers(
      this.incarnation,
      { code: JsonRpcCode.InternalError, message: INTERRUPTED_MESSAGE },
      now,
    );
    this.store.sweep(now);
    const every = options.sweepIntervalMs ?? Math.min(this.retentionMs, 60_000);
    if (every > 0) {
      this.#sweeper = setInterval(() => {
        try {
          this.store.sweep(this.#now());
        } catch (error) {
          options.log?.('task sweep failed', { error: (error as Error)?.message });
        }
      }, every);
      this.#sweeper.unref();
    }
  }

  get running(): number {
    return this.#runtimes.size;
  }

  /** Creates a working task owned by `ownerKey`; committed when this returns. */
  create(ownerKey: string, tool: string, statusMessage?: string): TaskRecord {
    if (this.#closed) throw protocolError('TASKS_CLOSED', 'moor is shutting down');
    return this.store.create({
      id: newTaskId(),
      ownerKey,
      tool,
      statusMessage,
      createdAt: this.#now(),
      retentionMs: this.retentionMs,
      pollIntervalMs: this.pollIntervalMs,
      incarnation: this.incarnation,
    });
  }

  /**
   * Runs `work` in the background for a created task. Its CallToolResult
   * (tool errors included) completes the task; a thrown JSON-RPC error fails
   * it with that error; anything else fails it as an internal error.
   */
  start(task: TaskRecord, options: StartOptions, work: (env: TaskWorkEnvironment) => Promise<unknown>): void {
    const runtime: Runtime = {
      id: task.id,
      tool: task.tool,
      policy: options.cancellation,
      controller: new AbortController(),
      cancelRequested: false,
      outstanding: new Map(),
      usedKeys: new Set(),
      preAnswered: new Map(Object.entries(options.preAnswered ?? {})),
      lastMessage: task.statusMessage,
    };
    this.#runtimes.set(task.id, runtime);
    // The work keeps the trace of the call that created the task, however long it runs.
    const inCallerTrace = captureTrace();
    const env: TaskWorkEnvironment = {
      taskId: task.id,
      signal: runtime.controller.signal,
      progress: async (progress, total, message) => this.#progress(runtime, progress, total, message),
      requestInput: (requests) => this.#requestInput(runtime, requests),
    };
    setImmediate(() => inCallerTrace(() => this.#run(runtime, env, work)));
  }

  #run(
    runtime: Runtime,
    env: TaskWorkEnvironment,
    work: (env: TaskWorkEnvironment) => Promise<unknown>,
  ): void {
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
  }

  /** Commits the waiting terminal writes in one transaction. */
  #flush(): void {
    if (this.#finishes.length === 0) return;
    const writes = this.#finishes;
    this.#finishes = [];
    this.store.transaction(() => {
      for (const write of writes) write();
    });
  }

  #settle(runtime: Runtime, outcome: { result?: unknown; error?: unknown }): void {
    this.#runtimes.delete(runtime.id);
    // Plain on purpose: the work has settled already, so nothing waits on what it makes of this.
    this.#rejectOutstanding(runtime, new Error('task finished'));
    this.#finishes.push(() => this.#finish(runtime, outcome));
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        try {
          this.#flush();
        } catch (error) {
          this.#options.log?.('task completion write failed', { error: (error as Error)?.message });
        }
      });
    }
  }

  #finish(runtime: Runtime, outcome: { result?: unknown; error?: unknown }): void {
    const now = this.#now();
    if (runtime.cancelRequested) {
      // Whatever the work did after the cancel, the client asked for it to stop: it ends cancelled.
      this.store.finish(runtime.id, 'cancelled', { statusMessage: 'Cancelled.' }, now);
      return;
    }
    if ('error' in outcome && outcome.error !== undefined) {
      const error = toTaskError(outcome.error);
      if (error.code === JsonRpcCode.InternalError && !(outcome.error instanceof ProtocolError))
        this.#options.onInternalError?.(outcome.error, runtime.tool);
      const applied = this.store.finish(runtime.id, 'failed', { error, statusMessage: error.message }, now);
      if (!applied)
        this.#options.log?.('a task failed after it had ended', { task: runtime.id, error: error.message });
      return;
    }
    const isError = (outcome.result as { isError?: unknown } | undefined)?.isError === true;
    const applied = this.store.finish(
      runtime.id,
      'completed',
      { result: outcome.result, statusMessage: isError ? 'Completed with a tool error.' : 'Completed.' },
      now,
    );
    if (!applied)
      this.#options.log?.('a task result arrived after it had ended; dropped', { task: runtime.id });
  }

  async #progress(runtime: Runtime, progress: number, total?: number, message?: string): Promise<void> {
    const text = message ?? (total === undefined ? `${progress}` : `${progress}/${total}`);
    if (text === runtime.lastMessage || !this.#runtimes.has(runtime.id)) return;
    runtime.lastMessage = text;
    if (runtime.outstanding.size > 0) return; // waiting on input: the status stays input_required
    this.store.setWorking(runtime.id, text, this.#now());
  }

  #requestInput(
    runtime: Runtime,
    requests: Readonly<Record<string, InputRequest>>,
  ): Promise<Record<string, InputResponse>> {
    if (runtime.controller.signal.aborted) return Promise.reject(runtime.controller.signal.reason);
    const answers: Record<string, InputResponse> = {};
    const asked: Array<[string, InputRequest]> = [];
    for (const [key, request] of Object.entries(requests)) {
      const pre = runtime.preAnswered.get(key);
      if (pre !== undefined) {
        runtime.preAnswered.delete(key);
        answers[key] = pre;
      } else asked.push([key, request]);
    }
    if (asked.length === 0) return Promise.resolve(answers);
    return new Promise((resolve, reject) => {
      const batch: Batch = { answers, remaining: asked.length, resolve, reject };
      for (const [key, request] of asked) {
        // Keys are unique for the task's lifetime: a key asked again gets a fresh wire key.
        let wireKey = key;
        for (let n = 2; runtime.usedKeys.has(wireKey); n++) wireKey = `${key}.${n}`;
        runtime.usedKeys.add(wireKey);
        runtime.outstanding.set(wireKey, { key, request, batch });
      }
      this.store.setInputRequired(runtime.id, this.#snapshot(runtime), this.#now());
    });
  }

  #snapshot(runtime: Runtime): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [wireKey, waiting] of runtime.outstanding) out[wireKey] = waiting.request;
    return out;
  }

  #rejectOutstanding(runtime: Runtime, reason: unknown): void {
    const batches = new Set([...runtime.outstanding.values()].map((w) => w.batch));
    runtime.outstanding.clear();
    for (const batch of batches) batch.reject(reason);
  }

  /** The task if `ownerKey` owns it and it has not expired; else the not-found error. */
  get(taskId: unknown, ownerKey: string | undefined): TaskRecord {
    if (typeof taskId !== 'string' || ownerKey === undefined) throw taskNotFound(taskId);
    this.#flush();
    const task = this.store.get(taskId, this.#now());
    if (task === undefined || task.ownerKey !== ownerKey) throw taskNotFound(taskId);
    return task;
  }

  list(ownerKey: string | undefined): TaskRecord[] {
    this.#flush();
    return this.store.list(ownerKey, this.#now());
  }

  /** tasks/update: answers outstanding input; unknown or already answered keys are ignored. */
  update(taskId: unknown, ownerKey: string | undefined, responses: Readonly<Record<string, unknown>>): void {
    const task = this.get(taskId, ownerKey);
    const runtime = this.#runtimes.get(task.id);
    if (runtime === undefined || runtime.outstanding.size === 0) return;
    const done = new Set<Batch>();
    for (const [wireKey, response] of Object.entries(responses)) {
      const waiting = runtime.outstanding.get(wireKey);
      if (waiting === undefined || !isInputResponse(response)) continue;
      runtime.outstanding.delete(wireKey);
      waiting.batch.answers[waiting.key] = response;
      waiting.batch.remaining -= 1;
      if (waiting.batch.remaining === 0) done.add(waiting.batch);
    }
    const now = this.#now();
    if (runtime.outstanding.size > 0) this.store.setInputRequired(task.id, this.#snapshot(runtime), now);
    else this.store.setWorking(task.id, runtime.lastMessage ?? null, now);
    for (const batch of done) batch.resolve(batch.answers);
  }

  /** tasks/cancel: cooperative; a terminal task is acknowledged unchanged. */
  cancel(taskId: unknown, ownerKey: string | undefined): void {
    const task = this.get(taskId, ownerKey);
    if (!RUNNING_STATUSES.has(task.status)) return;
    const runtime = this.#runtimes.get(task.id);
    const now = this.#now();
    if (runtime === undefined) {
      this.store.finish(task.id, 'cancelled', { statusMessage: 'Cancelled.' }, now);
      return;
    }
    if (runtime.policy === 'detach') {
      this.store.finish(
        task.id,
        'cancelled',
        { statusMessage: 'Cancelled; the work goes on in the background and its result will be dropped.' },
        now,
      );
      // Plain on purpose: the detached work's result is dropped, and an unexpected failure of it is
      // logged like any other (a registry error would turn it into a quiet tool error).
      this.#rejectOutstanding(runtime, new Error('task cancelled'));
      return;
    }
    if (runtime.cancelRequested) return;
    runtime.cancelRequested = true;
    this.store.setWorking(task.id, 'Cancelling…', now);
    runtime.controller.abort(protocolError('TASK_STOPPED', 'task cancelled'));
    this.#rejectOutstanding(runtime, runtime.controller.signal.reason);
    const timer = setTimeout(() => {
      this.store.finish(
        task.id,
        'cancelled',
        { statusMessage: 'Cancelled (the work was still stopping).' },
        this.#now(),
      );
    }, ABORT_GRACE_MS);
    timer.unref();
  }

  /** The DetailedTask for tasks/get. */
  detailed(task: TaskRecord): Record<string, unknown> {
    const wire: Record<string, unknown> = {
      ...createTaskFields(task),
      resultType: 'complete',
    };
    if (task.status === 'completed') wire.result = task.result ?? { content: [] };
    else if (task.status === 'failed')
      wire.error = task.error ?? { code: JsonRpcCode.InternalError, message: 'Task failed' };
    else if (task.status === 'input_required') wire.inputRequests = task.inputRequests ?? {};
    return wire;
  }

  /** Stops the sweeper; fails the tasks still running (their work is aborted). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#flush();
    const now = this.#now();
    for (const runtime of [...this.#runtimes.values()]) {
      this.store.finish(
        runtime.id,
        'failed',
        {
          error: { code: JsonRpcCode.InternalError, message: SHUTDOWN_MESSAGE },
          statusMessage: SHUTDOWN_MESSAGE,
        },
        now,
      );
      runtime.controller.abort(protocolError('TASK_STOPPED', SHUTDOWN_MESSAGE));
      this.#rejectOutstanding(runtime, runtime.controller.signal.reason);
    }
    this.#runtimes.clear();
  }
}

/** The Task fields every task shape carries (CreateTaskResult without resultType). */
export function createTaskFields(task: TaskRecord): Record<string, unknown> {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage !== null ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: ttlMsOf(task),
    pollIntervalMs: task.pollIntervalMs,
  };
}

export function createTaskResult(task: TaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...createTaskFields(task) };
}

function isInputResponse(value: unknown): value is InputResponse {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A thrown value as the JSON-RPC error a failed task carries. */
export function toTaskError(error: unknown): TaskError {
  if (error instanceof ProtocolError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined ? { data: error.data } : {}),
    };
  }
  return {
    code: JsonRpcCode.InternalError,
    message: 'The task failed unexpectedly; the daemon log has the details.',
  };
}
