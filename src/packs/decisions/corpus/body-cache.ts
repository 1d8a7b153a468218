/**
 * Decision bodies are read from disk when asked for (get_decision, snippets)
 * instead of living in memory: that saves the corpus's full size in RSS and
 * about a third of the cold-load time. A small cache keeps recent bodies.
 * A body whose file changed since it was indexed is returned as it is now,
 * and the change is reported so the corpus re-reads the file.
 */
import { stripFrontMatter } from './parse-madr.js';
import { readRecord, statStamp } from './read.js';
import { normalizeText } from './text.js';

const CAPACITY = 512;

export class BodyCache {
  private readonly entries = new Map<string, string>();

  constructor(private readonly onStale: (readPath: string) => void) {}

  /**
   * The body of the file at `readPath`, which was indexed with `stamp`. One
   * stat per call checks the file is still that version; a cached copy is
   * only used when it is.
   */
  get(readPath: string, stamp: string): string {
    const now = statStamp(readPath);
    if (now !== stamp) {
      this.onStale(readPath);
      if (now === null) return '';
    }
    const key = this.keyOf(readPath, now);
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Refresh recency: Map iteration order is insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const read = readRecord(readPath);
    if (read.kind !== 'text') return '';
    const body = stripFrontMatter(normalizeText(read.text));
    this.put(this.keyOf(readPath, read.stamp), body);
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
