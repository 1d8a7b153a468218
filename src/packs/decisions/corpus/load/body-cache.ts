/**
 * Decision bodies are read from disk when asked for (get_decision, snippets)
 * instead of living in memory: that saves the corpus's full size in RSS and
 * about a third of the cold-load time. A small cache keeps recent bodies.
 * A body whose file changed since it was indexed is returned as it is now,
 * and the change is reported so the corpus re-reads the file.
 */
import { hasFrontMatter, stripFrontMatter } from '../read/parse-madr.js';
import { readPrefix, readText, statStamp } from '../read/read.js';
import { normalizeText } from '../read/text.js';

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

  /**
   * The body of the file at `readPath`, which was indexed with `stamp`.
   * `keep` false: a body read from disk is not cached, nor a cached one made
   * recent, for a pass over every record (the search index built after the
   * load), which would otherwise evict what was asked for with what was not.
   */
  get(readPath: string, stamp: string, keep = true): string {
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
      if (!keep) return hit;
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
    if (keep) this.put(key, body);
    return body;
  }

  /**
   * The start of a body, for a snippet: the cached body when there is one,
   * else the first `bytes` of the file, decoded but not cached. `complete`
   * says whether that is the whole body.
   */
  prefix(readPath: string, stamp: string, bytes: number): { text: string; complete: boolean } {
    const hit = this.entries.get(this.keyOf(readPath, stamp));
    if (hit !== undefined) return { text: hit, complete: true };
    const read = readPrefix(readPath, bytes);
    if (read === null) return { text: '', complete: true };
    const text = normalizeText(read.text);
    const body = stripFrontMatter(text);
    // Front matter longer than the prefix: the cut text would be YAML, so take the whole body.
    if (!read.complete && body === text && hasFrontMatter(text))
      return { text: this.get(readPath, stamp), complete: true };
    return { text: body, complete: read.complete };
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
