/**
 * Group commit of task completions: the terminal writes of one event-loop
 * turn are committed together on the next (setImmediate) in one
 * finishMany(); a read first commits what is waiting (flush()). Commits run
 * one after another, so a flush resolves only when every earlier one has.
 */
import type { TaskFinish, TaskStore } from '../store/task-store.js';

export interface CompletionQueueOptions<T> {
  readonly store: TaskStore;
  readonly now: () => number;
  /** The terminal write an entry stands for, computed at commit time. */
  toFinish(entry: T): TaskFinish;
  /** After the commit, per entry: whether its write applied (false: the task had already ended). */
  committed(entry: T, applied: boolean): void;
  log?(message: string, fields?: Record<string, unknown>): void;
}

export class CompletionQueue<T> {
  readonly #options: CompletionQueueOptions<T>;
  #waiting: T[] = [];
  #scheduled = false;
  #commits: Promise<void> = Promise.resolve();

  constructor(options: CompletionQueueOptions<T>) {
    this.#options = options;
  }

  /** Queues a completion for the next turn's commit. */
  add(entry: T): void {
    this.#waiting.push(entry);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.flush();
    });
  }

  /** Commits what is waiting; resolves when that and every earlier commit are done. */
  flush(): Promise<void> {
    if (this.#waiting.length > 0) {
      const batch = this.#waiting;
      this.#waiting = [];
      this.#commits = this.#commits.then(() =>
        this.#commit(batch).catch((error: unknown) =>
          this.#options.log?.('task completion write failed', { error: (error as Error)?.message }),
        ),
      );
    }
    return this.#commits;
  }

  async #commit(batch: readonly T[]): Promise<void> {
    const finishes = batch.map((entry) => this.#options.toFinish(entry));
    const applied = await this.#options.store.finishMany(finishes, this.#options.now());
    for (const [i, entry] of batch.entries()) this.#options.committed(entry, applied[i] === true);
  }
}
