/**
 * `notifications/tasks`: every status write of a task (working, a new
 * status message, input_required, a terminal status) is published to the
 * router under the task's owner, as the DetailedTask `tasks/get` would
 * answer. Writes of one event-loop turn are coalesced into one notification
 * per task (the latest state), read after the turn so a group-committed
 * terminal write is on disk before it is announced. Nothing is read unless
 * some stream listens to tasks at all.
 */
import type { EventRouter } from '../host/events/router.js';
import type { TaskStore } from '../store/task-store.js';

export interface TaskStatusSource {
  readonly store: TaskStore;
  detailed(task: NonNullable<ReturnType<TaskStore['get']>>): Record<string, unknown>;
}

export class TaskStatusFeed {
  readonly #router: EventRouter;
  #source: TaskStatusSource | undefined;
  readonly #pending = new Set<string>();
  #scheduled = false;

  constructor(router: EventRouter) {
    this.#router = router;
  }

  /** The service whose rows are read (set once it exists: it is built with this feed's hook). */
  attach(source: TaskStatusSource): void {
    this.#source = source;
  }

  /** A task's row changed. */
  changed = (taskId: string): void => {
    if (!this.#router.hasTaskListeners()) return;
    this.#pending.add(taskId);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#publish());
  };

  #publish(): void {
    this.#scheduled = false;
    const ids = [...this.#pending];
    this.#pending.clear();
    const source = this.#source;
    if (source === undefined) return;
    for (const id of ids) {
      const task = source.store.get(id, Date.now());
      if (task === undefined || !this.#router.hasTaskListeners(task.ownerKey)) continue;
      this.#router.publishTask(task.ownerKey, { taskId: id, detailed: source.detailed(task) });
    }
  }
}

/** The store, telling `onWrite` of every write that changed a task's status. */
export function observedStore(store: TaskStore, onWrite: (taskId: string) => void): TaskStore {
  const notify = (applied: boolean, id: string): boolean => {
    if (applied) onWrite(id);
    return applied;
  };
  return {
    create: (task) => store.create(task),
    get: (id, now) => store.get(id, now),
    list: (ownerKey, now) => store.list(ownerKey, now),
    setWorking: (id, message, now) => notify(store.setWorking(id, message, now), id),
    setInputRequired: (id, requests, now) => notify(store.setInputRequired(id, requests, now), id),
    finish: (id, status, payload, now) => notify(store.finish(id, status, payload, now), id),
    interruptOthers: (incarnation, error, now) => store.interruptOthers(incarnation, error, now),
    transaction: (fn) => store.transaction(fn),
    sweep: (now) => store.sweep(now),
    close: () => store.close(),
  };
}
