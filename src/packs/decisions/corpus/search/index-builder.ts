/**
 * Builds a queued search index after the load, a slice at a time on the
 * event loop: tokenizing 10,000 records takes about as long as reading them,
 * and a daemon can answer everything but search meanwhile. Between slices
 * other requests run; a search that comes first finishes the build itself
 * (DecisionSearch flushes what is queued), so its answer is the full index's.
 */
import type { DecisionSearch } from './search.js';

/** Short enough that a request waiting behind a slice hardly notices it. */
const SLICE_MS = 8;

export class IndexBuilder {
  /** Settles once nothing is queued, or once stopped. */
  readonly ready: Promise<void>;
  private settle: () => void = () => {};
  private next: NodeJS.Immediate | null;

  constructor(
    private readonly search: DecisionSearch,
    private readonly sliceMs = SLICE_MS,
  ) {
    this.ready = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.next = setImmediate(() => this.slice());
  }

  /** No more slices: the corpus is closing. What is still queued waits for a search, if any comes. */
  stop(): void {
    if (this.next !== null) clearImmediate(this.next);
    this.next = null;
    this.settle();
  }

  private slice(): void {
    this.next = null;
    // setImmediate between slices: requests and file events already waiting run before the next one.
    if (this.search.step(performance.now() + this.sliceMs)) this.next = setImmediate(() => this.slice());
    else this.settle();
  }
}
