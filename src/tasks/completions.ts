/**
 * Writes task completions. The terminal writes of one event-loop turn are
 * committed together on the next (setImmediate) in one finishMany(); a read
 * first commits what is waiting (flush()). Commits run one after another, so
 * a flush settles only when every earlier one has.
 *
 * A write the store could not take because it is unreachable
 * (STORE_UNAVAILABLE) is kept and tried again, with backoff, until the store
 * answers: a finished task's result exists nowhere else, and dropping it
 * would leave the row "working" until its lease ran out and someone failed
 * it "interrupted". What is kept is bounded in bytes: a result past the
 * budget is replaced by a failure that says why, written like any other
 * once the store is back, so no task ends silently. The number of kept
 * entries needs no bound of its own: each is a task whose create was
 * committed, and no create commits while the store is down.
 */
import { isMoorError, JsonRpcCode } from '../errors.js';
import type { TaskFinish, TaskStore } from '../store/task-store.js';
import { DEFAULT_UNWRITTEN_RESULT_BYTES } from './defaults.js';

export const RESULT_NOT_KEPT_MESSAGE =
  'Task result lost: the task store was unreachable when the task finished, and the result was larger than moor keeps meanwhile';

/** The first wait before writing kept completions again; it doubles up to the maximum. */
const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 2_000;

export interface CompletionWriterOptions<T> {
  readonly store: TaskStore;
  readonly now: () => number;
  /** The task an entry finishes. */
  idOf(entry: T): string;
  /** The terminal write an entry stands for, computed once, at its first commit. */
  toFinish(entry: T): TaskFinish;
  /** After the commit, per entry: whether its write applied (false: the task had already ended). */
  committed(entry: T, applied: boolean, finish: TaskFinish): void;
  /** The entry holding no result: what stays of one whose result is past the budget. */
  withoutResult(entry: T): T;
  /** How many bytes of results are kept while the store is unreachable. */
  readonly unwrittenResultBytes?: number | undefined;
  log?(message: string, fields?: Record<string, unknown>): void;
}

interface Held<T> {
  readonly entry: T;
  readonly finish: TaskFinish;
}

export class CompletionWriter<T> {
  readonly #options: CompletionWriterOptions<T>;
  readonly #budget: number;
  #waiting: T[] = [];
  /** Completions the store has not taken yet, oldest first. */
  #unwritten: Held<T>[] = [];
  #writing: readonly Held<T>[] = [];
  #scheduled = false;
  #commits: Promise<void> = Promise.resolve();
  #retry: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RETRY_MS;
  #closed = false;

  constructor(options: CompletionWriterOptions<T>) {
    this.#options = options;
    this.#budget = options.unwrittenResultBytes ?? DEFAULT_UNWRITTEN_RESULT_BYTES;
  }

  /** Queues a completion for the next turn's commit. */
  add(entry: T): void {
    this.#waiting.push(entry);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.flush().catch(() => {}); // kept and retried; a reader's own flush reports the outage
    });
  }

  /**
   * Commits what is waiting and what was kept; settles when that and every
   * earlier commit are done. Rejects with the store's error when it could
   * not be reached (the completions are kept).
   */
  flush(): Promise<void> {
    const attempt = this.#commits.then(() => this.#write());
    this.#commits = attempt.catch(() => {});
    return attempt;
  }

  /** The tasks whose completion the store has not taken yet: their leases must stay ours. */
  unwrittenIds(): string[] {
    const { idOf } = this.#options;
    return [
      ...this.#unwritten.map((held) => held.finish.id),
      ...this.#writing.map((held) => held.finish.id),
      ...this.#waiting.map(idOf),
    ];
  }

  /**
   * Stops retrying after one last try bounded by `boundMs`; logs how many
   * completions, and which tasks', are still unwritten. Returns their ids.
   */
  async close(boundMs: number): Promise<string[]> {
    this.#closed = true;
    clearTimeout(this.#retry);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
    });
    await Promise.race([this.flush().catch(() => {}), bound]);
    clearTimeout(timer);
    const ids = [...new Set(this.unwrittenIds())];
    if (ids.length > 0)
      this.#options.log?.(
        `${ids.length} task completion(s) unwritten at shutdown: the store could not be reached; those tasks will read failed`,
        { count: ids.length, tasks: ids },
      );
    return ids;
  }

  async #write(): Promise<void> {
    const fresh = this.#waiting.splice(0).map((entry) => ({ entry, finish: this.#options.toFinish(entry) }));
    const batch = [...this.#unwritten, ...fresh];
    if (batch.length === 0) return;
    const retried = this.#unwritten.length;
    this.#unwritten = [];
    this.#writing = batch;
    let applied: boolean[];
    try {
      applied = await this.#options.store.finishMany(
        batch.map((held) => held.finish),
        this.#options.now(),
      );
    } catch (error) {
      this.#writing = [];
      if (!(isMoorError(error) && error.code === 'STORE_UNAVAILABLE')) {
        // The store answered and refused: a defect of ours that trying again would only repeat.
        this.#options.log?.('task completion write failed', {
          error: (error as Error)?.message,
          tasks: batch.map((held) => held.finish.id),
        });
        return;
      }
      this.#keep(batch, batch.length - retried);
      throw error;
    }
    this.#writing = [];
    this.#retryMs = FIRST_RETRY_MS;
    if (retried > 0)
      this.#options.log?.('kept task completions written: the store answers again', { tasks: retried });
    for (const [i, held] of batch.entries())
      this.#options.committed(held.entry, applied[i] === true, held.finish);
  }

  /** Keeps a batch the store could not take, within the budget, and schedules the next try. */
  #keep(batch: readonly Held<T>[], fresh: number): void {
    if (fresh > 0)
      this.#options.log?.('task completions kept: the store cannot be reached; retrying until it answers', {
        tasks: fresh,
        unwritten: batch.length,
      });
    let bytes = 0;
    this.#unwritten = batch.map((held) => {
      const size = payloadBytes(held.finish);
      if (bytes + size <= this.#budget) {
        bytes += size;
        return held;
      }
      this.#options.log?.(
        'a task result too large to keep while the store is unreachable: the task will fail',
        {
          task: held.finish.id,
          bytes: size,
        },
      );
      return { entry: this.#options.withoutResult(held.entry), finish: notKept(held.finish.id) };
    });
    if (this.#closed || this.#retry !== undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.flush().catch(() => {});
    }, this.#retryMs);
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
  }
}

/** What keeping a finish costs; one that cannot be measured cannot be written either. */
function payloadBytes(finish: TaskFinish): number {
  try {
    return Buffer.byteLength(JSON.stringify(finish.payload) ?? '');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function notKept(id: string): TaskFinish {
  const error = { code: JsonRpcCode.InternalError, message: RESULT_NOT_KEPT_MESSAGE };
  return { id, status: 'failed', payload: { error, statusMessage: RESULT_NOT_KEPT_MESSAGE } };
}
