/**
 * One non-recursive fs.watch per corpus folder (recursive watching is not
 * reliable on Node 20 Linux). Events only mark paths dirty; the corpus
 * decides when to re-read them. Watchers do not keep the process alive.
 */
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';

export class CorpusWatcher {
  private readonly watchers = new Map<string, FSWatcher>();

  /** `onDirty(absPath)`: something at that path (a file, or a folder itself) may have changed. */
  constructor(private readonly onDirty: (absPath: string) => void) {}

  get size(): number {
    return this.watchers.size;
  }

  has(dir: string): boolean {
    return this.watchers.has(dir);
  }

  add(dir: string): void {
    if (this.watchers.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, (_event, filename) => {
        // No file name (some platforms, overflow): the whole folder must be re-read.
        this.onDirty(filename ? path.join(dir, filename.toString()) : dir);
      });
      w.on('error', () => {
        // The folder went away or became unreadable: drop the watcher, re-read the folder.
        this.remove(dir);
        this.onDirty(dir);
      });
      this.watchers.set(dir, w);
    } catch {
      // Folder vanished between the walk and here; the next refresh notices.
    }
  }

  /** Stop watching `dir` and every folder below it. */
  remove(dir: string): void {
    const prefix = dir + path.sep;
    for (const [d, w] of this.watchers) {
      if (d === dir || d.startsWith(prefix)) {
        w.close();
        this.watchers.delete(d);
      }
    }
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
