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
import type { TaskRecord, TaskStore } from '../store/task-store.js';

export interface TaskStatusSource {
  readonly store: TaskStore;
  detailed(task: TaskRecord): Record<string, unknown>;
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
    // A stream opened after its task changed (a short task may already be done) starts from where it is.
    this.#router.provideTaskState(async (ownerKey, ids) => {
      if (ids === undefined) {
        const owned = await source.store.list(ownerKey, Date.now());
        return owned.map((task) => ({ taskId: task.id, detailed: source.detailed(task) }));
      }
      const events = [];
      for (const id of new Set(ids)) {
        const task = await source.store.get(id, Date.now());
        if (task !== undefined && task.ownerKey === ownerKey)
          events.push({ taskId: id, detailed: source.detailed(task) });
      }
      return events;
    });
  }

  /** A task's row changed. */
  changed = (taskId: string): void => {
    if (!this.#router.hasTaskListeners()) return;
    this.#pending.add(taskId);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#publish().catch(() => {
        // the store is closing: nobody is left to tell
      });
    });
  };

  async #publish(): Promise<void> {
    this.#scheduled = false;
    const ids = [...this.#pending];
    this.#pending.clear();
    const source = this.#source;
    if (source === undefined) return;
    for (const id of ids) {
      const task = await source.store.get(id, Date.now());
      if (task === undefined || !this.#router.hasTaskListeners(task.ownerKey)) continue;
      this.#router.publishTask(task.ownerKey, { taskId: id, detailed: source.detailed(task) });
    }
  }
}
