/**
 * A per-session write lock: critical sections run one after another, in
 * call order, even when they await the store in between. Installation,
 * disconnect and drops all go through it, so a generation checked at the
 * start of a section still holds when its write commits.
 */
export class SerialLock {
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;

  run<T>(section: () => Promise<T> | T): Promise<T> {
    this.#pending += 1;
    const result = this.#tail.then(section).finally(() => {
      this.#pending -= 1;
    });
    // A failed section must not wedge the ones queued behind it.
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** True when no section is running or queued. */
  get idle(): boolean {
    return this.#pending === 0;
  }
}
