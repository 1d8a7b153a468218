/**
 * The periodic clean-up of session and room bookkeeping (every 5 minutes by
 * default): each run calls every sweep with the same `now`, in order, and
 * one failing sweep does not stop the others. Tests call runOnce() with
 * their own clock instead of waiting for the interval.
 */
export const DEFAULT_REAP_INTERVAL_MS = 5 * 60_000;

/** One sweep: e.g. `(now) => rooms.reap(now)`, `(now) => sessions.reap(now)`. */
export type Sweep = (now: number) => unknown;

export interface ReaperOptions {
  readonly sweeps: readonly Sweep[];
  readonly intervalMs?: number;
  now?(): number;
  /** Where a failing sweep is reported (the daemon log). */
  onError?(error: unknown): void;
}

export class Reaper {
  readonly #options: ReaperOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(options: ReaperOptions) {
    this.#options = options;
  }

  /** Runs every sweep once; a run already in progress is joined, not doubled. */
  runOnce(now: number = (this.#options.now ?? Date.now)()): Promise<void> {
    this.#running ??= this.#run(now).finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #run(now: number): Promise<void> {
    for (const sweep of this.#options.sweeps) {
      try {
        await sweep(now);
      } catch (error) {
        this.#options.onError?.(error);
      }
    }
  }

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(
      () => void this.runOnce(),
      this.#options.intervalMs ?? DEFAULT_REAP_INTERVAL_MS,
    );
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
