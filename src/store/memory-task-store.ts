/**
 * An in-memory TaskStore with the SQLite store's semantics (fences,
 * retention, interruption): for benchmarks (the ratio against SQLite) and
 * tests. Nothing survives the process.
 */
import { MoorError } from '../errors.js';
import {
  isExpired,
  type NewTask,
  newTaskRecord,
  RUNNING_STATUSES,
  type TaskError,
  type TaskRecord,
  type TaskStore,
  type TerminalPayload,
  type TerminalStatus,
} from './task-store.js';

export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();

  create(task: NewTask): TaskRecord {
    if (this.#tasks.has(task.id)) throw new MoorError('TASK_EXISTS', `task ${task.id} already exists`);
    const record = newTaskRecord(task);
    this.#tasks.set(task.id, record);
    return record;
  }

  get(id: string, now: number): TaskRecord | undefined {
    const task = this.#tasks.get(id);
    return task === undefined || isExpired(task, now) ? undefined : task;
  }

  list(ownerKey: string | undefined, now: number): TaskRecord[] {
    return [...this.#tasks.values()]
      .filter((t) => (ownerKey === undefined || t.ownerKey === ownerKey) && !isExpired(t, now))
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  #running(id: string): TaskRecord | undefined {
    const task = this.#tasks.get(id);
    return task !== undefined && RUNNING_STATUSES.has(task.status) ? task : undefined;
  }

  setWorking(id: string, statusMessage: string | null | undefined, now: number): boolean {
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

  setInputRequired(id: string, inputRequests: Record<string, unknown>, now: number): boolean {
    const task = this.#running(id);
    if (!task) return false;
    this.#tasks.set(id, { ...task, status: 'input_required', inputRequests, lastUpdatedAt: now });
    return true;
  }

  finish(id: string, status: TerminalStatus, payload: TerminalPayload, now: number): boolean {
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

  interruptOthers(incarnation: string, error: TaskError, now: number): number {
    let n = 0;
    for (const task of [...this.#tasks.values()]) {
      if (task.incarnation === incarnation || !RUNNING_STATUSES.has(task.status)) continue;
      this.finish(task.id, 'failed', { error, statusMessage: error.message }, now);
      n++;
    }
    return n;
  }

  transaction<T>(fn: () => T): T {
    return fn();
  }

  sweep(now: number): number {
    let n = 0;
    for (const [id, task] of this.#tasks) {
      if (isExpired(task, now)) {
        this.#tasks.delete(id);
        n++;
      }
    }
    return n;
  }

  close(): void {
    this.#tasks.clear();
  }
}
