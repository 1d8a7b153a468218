/**
 * Builds a queued search index after the load, a slice at a time on the
 * event loop: tokenizing 10,000 records takes about as long as reading them,
 * and a daemon can answer everything but search meanwhile. Between slices
 * other requests run; a search that comes first finishes the build itself
 * (DecisionSearch flushes what is queued), so its answer is the full index's.
 * The build alone never keeps a process alive: one whose work is done (a
 * `moor stdio --direct` whose client left) exits with it unfinished, as
 * nobody can search any more; only a caller waiting for it (`whenReady`)
 * keeps the process up until it is done.
 */
import type { DecisionSearch } from './search.js';

/**
 * Short enough that a request or a file event waiting behind a slice hardly
 * notices it (an edit's announcement waits for up to two: its event, then
 * its refresh after the debounce).
 */
const SLICE_MS = 4;

export class IndexBuilder {
  /** Settles once nothing is queued, or once stopped. */
  private readonly ready: Promise<void>;
  private settle: () => void = () => {};
  private next: NodeJS.Immediate | null = null;
  /** Someone awaits the build: its slices hold the event loop. */
  private held = false;

  constructor(
    private readonly search: DecisionSearch,
    private readonly sliceMs = SLICE_MS,
  ) {
    this.ready = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.schedule();
  }

  /** Settles once nothing is queued, or once stopped; until then the process stays up for it. */
  whenReady(): Promise<void> {
    this.held = true;
    this.next?.ref();
    return this.ready;
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
    if (this.search.step(performance.now() + this.sliceMs)) this.schedule();
    else this.settle();
  }

  private schedule(): void {
    const next = setImmediate(() => this.slice());
    if (!this.held) next.unref();
    this.next = next;
  }
}
