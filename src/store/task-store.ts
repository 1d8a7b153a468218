/**
 * Where tasks live. Two implementations share this interface: SQLite (the
 * daemon's, durable across restarts) and memory (benchmarks, tests). Every
 * status write is fenced: it applies only while the task is still running
 * (working / input_required), so a terminal status never changes.
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
  /** The daemon incarnation that ran it. */
  readonly incarnation: string;
}

export interface NewTask {
  readonly id: string;
  readonly ownerKey: string;
  readonly tool: string;
  readonly statusMessage?: string | undefined;
  readonly createdAt: number;
  readonly retentionMs: number;
  readonly pollIntervalMs: number;
  readonly incarnation: string;
}

export interface TerminalPayload {
  readonly result?: unknown;
  readonly error?: TaskError;
  readonly statusMessage?: string | null;
}

export interface TaskStore {
  /** Inserts a working task; the row is committed when this returns. */
  create(task: NewTask): TaskRecord;
  /** The task, or undefined when missing or past its retention at `now`. */
  get(id: string, now: number): TaskRecord | undefined;
  /** Tasks of one owner (or all), newest first, expired ones left out. */
  list(ownerKey: string | undefined, now: number): TaskRecord[];
  /** Sets status message (and optionally back to working) while running; false when fenced off. */
  setWorking(id: string, statusMessage: string | null | undefined, now: number): boolean;
  /** Running → input_required with the outstanding requests; false when fenced off. */
  setInputRequired(id: string, inputRequests: Record<string, unknown>, now: number): boolean;
  /** Running → terminal; false when the task had already finished (the fence). */
  finish(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): boolean;
  /** Fails every running task not owned by `incarnation` (a previous daemon's); returns how many. */
  interruptOthers(incarnation: string, error: TaskError, now: number): number;
  /** Runs `fn` as one transaction (one commit for every write inside it). */
  transaction<T>(fn: () => T): T;
  /** Deletes tasks whose retention ended at `now`; returns how many. */
  sweep(now: number): number;
  close(): void;
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
    incarnation: task.incarnation,
  };
}
