/**
 * Decision bodies are read from disk when asked for (get_decision, snippets)
 * instead of living in memory: that saves the corpus's full size in RSS and
 * about a third of the cold-load time. A small cache keeps recent bodies.
 * A body whose file changed since it was indexed is returned as it is now,
 * and the change is reported so the corpus re-reads the file.
 */
import { stripFrontMatter } from './parse-madr.js';
import { readText, statStamp } from './read.js';
import { normalizeText } from './text.js';

const CAPACITY = 512;

export class BodyCache {
  private readonly entries = new Map<string, string>();

  /**
   * `validate`: check the file's stamp on every call. Needed when nothing
   * watches the corpus; with a watcher, a changed file gets a new record (and
   * a new stamp, so new cache keys) within milliseconds, and a cached body
   * costs no system call at all.
   */
  constructor(
    private readonly onStale: (readPath: string) => void,
    private readonly validate: boolean,
  ) {}

  /** The body of the file at `readPath`, which was indexed with `stamp`. */
  get(readPath: string, stamp: string): string {
    let current = stamp;
    if (this.validate) {
      const now = statStamp(readPath);
      if (now === null) {
        this.onStale(readPath);
        return '';
      }
      if (now !== stamp) this.onStale(readPath);
      current = now;
    }
    const key = this.keyOf(readPath, current);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Refresh recency: Map iteration order is insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const text = readText(readPath);
    if (text === null) {
      this.onStale(readPath);
      return '';
    }
    const body = stripFrontMatter(normalizeText(text));
    this.put(key, body);
    return body;
  }

  /** Seed the cache with a body just read (a freshly changed file is likely to be asked for). */
  put(key: string, body: string): void {
    this.entries.set(key, body);
    if (this.entries.size > CAPACITY) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  keyOf(readPath: string, stamp: string): string {
    return `${readPath}\u0000${stamp}`;
  }
}
