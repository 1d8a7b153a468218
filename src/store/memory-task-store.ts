/**
 * An in-memory TaskStore with the SQLite store's semantics (fences,
 * retention, leases): for benchmarks (the ratio against SQLite) and tests.
 * Nothing survives the process; like SQLite it belongs to one daemon.
 */
import { MoorError } from '../errors.js';
import {
  isExpired,
  type NewTask,
  newTaskRecord,
  RUNNING_STATUSES,
  type TaskError,
  type TaskFinish,
  type TaskRecord,
  type TaskStore,
  type TerminalPayload,
  type TerminalStatus,
} from './task-store.js';

export class MemoryTaskStore implements TaskStore {
  readonly shared = false;
  readonly #tasks = new Map<string, TaskRecord>();

  async create(task: NewTask): Promise<TaskRecord> {
    if (this.#tasks.has(task.id)) throw new MoorError('TASK_EXISTS', `task ${task.id} already exists`);
    const record = newTaskRecord(task);
    this.#tasks.set(task.id, record);
    return record;
  }

  async get(id: string, now: number): Promise<TaskRecord | undefined> {
    const task = this.#tasks.get(id);
    return task === undefined || isExpired(task, now) ? undefined : task;
  }

  async list(ownerKey: string | undefined, now: number): Promise<TaskRecord[]> {
    return [...this.#tasks.values()]
      .filter((t) => (ownerKey === undefined || t.ownerKey === ownerKey) && !isExpired(t, now))
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  #running(id: string): TaskRecord | undefined {
    const task = this.#tasks.get(id);
    return task !== undefined && RUNNING_STATUSES.has(task.status) ? task : undefined;
  }

  async setWorking(id: string, statusMessage: string | null | undefined, now: number): Promise<boolean> {
    const task = this.#running(id);
    if (!task) return false;
    this.#tasks.set(id, {
      ...task,
      status: 'working',
      statusMessage: statusMessage === undefined ? task.statusMessage : statusMessage,
      inputRequests: null,
      lastUpdatedAt: now,
    });
    return true;
  }

  async setInputRequired(id: string, inputRequests: Record<string, unknown>, now: number): Promise<boolean> {
    const task = this.#running(id);
    if (!task) return false;
    this.#tasks.set(id, { ...task, status: 'input_required', inputRequests, lastUpdatedAt: now });
    return true;
  }

  async finish(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): Promise<boolean> {
    return this.#finishNow(id, status, payload, now);
  }

  async finishMany(finishes: readonly TaskFinish[], now: number): Promise<boolean[]> {
    return finishes.map((f) => this.#finishNow(f.id, f.status, f.payload, now));
  }

  #finishNow(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): boolean {
    const task = this.#running(id);
    if (!task) return false;
    this.#tasks.set(id, {
      ...task,
      status,
      statusMessage: payload.statusMessage === undefined ? task.statusMessage : payload.statusMessage,
      result: payload.result ?? null,
      error: payload.error ?? null,
      inputRequests: null,
      terminalAt: now,
      lastUpdatedAt: now,
    });
    return true;
  }

  async requestCancel(id: string, now: number): Promise<boolean> {
    const task = this.#running(id);
    if (!task) return false;
    this.#tasks.set(id, { ...task, cancelRequestedAt: task.cancelRequestedAt ?? now, lastUpdatedAt: now });
    return true;
  }

  async renewLeases(owner: string, ids: readonly string[], expiresAt: number): Promise<string[]> {
    const cancelled: string[] = [];
    for (const id of ids) {
      const task = this.#running(id);
      if (task === undefined || task.leaseOwner !== owner) continue;
      this.#tasks.set(id, { ...task, leaseExpiresAt: expiresAt });
      if (task.cancelRequestedAt !== null) cancelled.push(id);
    }
    return cancelled;
  }

  async interruptExpired(owner: string, expiredBy: number, error: TaskError, now: number): Promise<string[]> {
    const ids: string[] = [];
    for (const task of [...this.#tasks.values()]) {
      if (task.leaseOwner === owner || task.leaseExpiresAt > expiredBy) continue;
      if (this.#finishNow(task.id, 'failed', { error, statusMessage: error.message }, now)) ids.push(task.id);
    }
    return ids;
  }

  async changedSince(since: number, now: number): Promise<TaskRecord[]> {
    return [...this.#tasks.values()]
      .filter((t) => t.lastUpdatedAt > since && !isExpired(t, now))
      .sort((a, b) => a.lastUpdatedAt - b.lastUpdatedAt);
  }

  async sweep(now: number): Promise<number> {
    let n = 0;
    for (const [id, task] of this.#tasks) {
      if (isExpired(task, now)) {
        this.#tasks.delete(id);
        n++;
      }
    }
    return n;
  }

  async close(): Promise<void> {
    this.#tasks.clear();
  }
}
