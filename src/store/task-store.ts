/**
 * Where tasks live. Three implementations share this interface: SQLite (the
 * daemon's default, durable across restarts), PostgreSQL (shared by several
 * daemons) and memory (benchmarks, tests). Every method returns a promise so
 * that a networked backend implements it as well as an embedded one.
 *
 * Every status write is fenced: it applies only while the task is still
 * running (working / input_required), so a terminal status never changes.
 *
 * A running task is owned by the daemon that runs its work through a lease
 * (`leaseOwner`, `leaseExpiresAt`), which that daemon renews while the work
 * goes on. A task whose lease has run out belongs to a daemon that stopped:
 * any daemon may fail it "interrupted".
 */

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

export const RUNNING_STATUSES: ReadonlySet<TaskStatus> = new Set(['working', 'input_required']);

/** A JSON-RPC error object, as a failed task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface TaskRecord {
  readonly id: string;
  readonly ownerKey: string;
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage: string | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** When the task reached its terminal status; null while it runs. */
  readonly terminalAt: number | null;
  /** How long a finished task stays readable. */
  readonly retentionMs: number;
  readonly pollIntervalMs: number;
  readonly result: unknown;
  readonly error: TaskError | null;
  readonly inputRequests: Record<string, unknown> | null;
  /** The daemon (its incarnation id) that runs the task's work. */
  readonly leaseOwner: string;
  /** Until when that daemon vouches for the work; renewed while it runs. */
  readonly leaseExpiresAt: number;
  /** When a client asked for the task to stop (through any daemon); null when nobody has. */
  readonly cancelRequestedAt: number | null;
}

export interface NewTask {
  readonly id: string;
  readonly ownerKey: string;
  readonly tool: string;
  readonly statusMessage?: string | undefined;
  readonly createdAt: number;
  readonly retentionMs: number;
  readonly pollIntervalMs: number;
  readonly leaseOwner: string;
  readonly leaseExpiresAt: number;
}

export interface TerminalPayload {
  readonly result?: unknown;
  readonly error?: TaskError;
  readonly statusMessage?: string | null;
}

/** One terminal write of a group commit. */
export interface TaskFinish {
  readonly id: string;
  readonly status: TerminalStatus;
  readonly payload: TerminalPayload;
}

export interface TaskStore {
  /**
   * True when several daemons may use the store at once (PostgreSQL). An
   * unshared store belongs to the one daemon holding its state dir's lock,
   * so every other lease owner in it is a daemon that has stopped.
   */
  readonly shared: boolean;
  /** Inserts a working task; the row is committed when the promise resolves. */
  create(task: NewTask): Promise<TaskRecord>;
  /** The task, or undefined when missing or past its retention at `now`. */
  get(id: string, now: number): Promise<TaskRecord | undefined>;
  /** Tasks of one owner (or all), newest first, expired ones left out. */
  list(ownerKey: string | undefined, now: number): Promise<TaskRecord[]>;
  /** Sets status message (and optionally back to working) while running; false when fenced off. */
  setWorking(id: string, statusMessage: string | null | undefined, now: number): Promise<boolean>;
  /** Running → input_required with the outstanding requests; false when fenced off. */
  setInputRequired(id: string, inputRequests: Record<string, unknown>, now: number): Promise<boolean>;
  /** Running → terminal; false when the task had already finished (the fence). */
  finish(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): Promise<boolean>;
  /** Several terminal writes in one transaction (one commit); each entry fenced like finish(). */
  finishMany(finishes: readonly TaskFinish[], now: number): Promise<boolean[]>;
  /** Records a cancellation request on a running task; false when fenced off. */
  requestCancel(id: string, now: number): Promise<boolean>;
  /**
   * Extends the leases `owner` holds on these running tasks to `expiresAt`;
   * returns the ids among them whose cancellation was requested.
   */
  renewLeases(owner: string, ids: readonly string[], expiresAt: number): Promise<string[]>;
  /**
   * Fails the running tasks of other lease owners whose lease ended at or
   * before `expiredBy`, with `error`, at `now`; returns their ids.
   */
  interruptExpired(owner: string, expiredBy: number, error: TaskError, now: number): Promise<string[]>;
  /** Tasks updated after `since` (epoch ms), oldest change first: what a reconnecting daemon re-reads. */
  changedSince(since: number, now: number): Promise<TaskRecord[]>;
  /** Deletes tasks whose retention ended at `now`; returns how many. */
  sweep(now: number): Promise<number>;
  close(): Promise<void>;
}

/** `ttlMs` on the wire: null while running, then terminal time + retention − creation. */
export function ttlMsOf(task: TaskRecord): number | null {
  return task.terminalAt === null ? null : task.terminalAt + task.retentionMs - task.createdAt;
}

export function isExpired(task: TaskRecord, now: number): boolean {
  return task.terminalAt !== null && task.terminalAt + task.retentionMs <= now;
}

/** The record a freshly created task has in every store: working, nothing settled yet. */
export function newTaskRecord(task: NewTask): TaskRecord {
  return {
    id: task.id,
    ownerKey: task.ownerKey,
    tool: task.tool,
    status: 'working',
    statusMessage: task.statusMessage ?? null,
    createdAt: task.createdAt,
    lastUpdatedAt: task.createdAt,
    terminalAt: null,
    retentionMs: task.retentionMs,
    pollIntervalMs: task.pollIntervalMs,
    result: null,
    error: null,
    inputRequests: null,
    leaseOwner: task.leaseOwner,
    leaseExpiresAt: task.leaseExpiresAt,
    cancelRequestedAt: null,
  };
}
