/**
 * One non-recursive fs.watch per corpus folder (recursive watching is not
 * reliable on Node 20 Linux), plus one on the corpus folder's parent that
 * reports only the corpus folder's own name: a watch follows an inode, so
 * when the folder is moved away or deleted and re-created, only the parent
 * sees the new one appear. Events only mark paths dirty; the corpus decides
 * when to re-read them (and notices a replaced folder by its identity).
 * Watchers do not keep the process alive.
 */
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';

export class CorpusWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private parent: FSWatcher | null = null;

  /** `onDirty(absPath)`: something at that path (a file, or a folder itself) may have changed. */
  constructor(private readonly onDirty: (absPath: string) => void) {}

  get size(): number {
    return this.watchers.size;
  }

  has(dir: string): boolean {
    return this.watchers.has(dir);
  }

  /**
   * Watch the parent of the corpus folder `root` for events naming `root`
   * (moved, deleted, created). Reported as `root` itself being dirty.
   */
  watchRoot(root: string): void {
    if (this.parent !== null) return;
    const name = path.basename(root);
    try {
      const w = watch(path.dirname(root), { persistent: false }, (_event, filename) => {
        if (filename === null || filename.toString() === name) this.onDirty(root);
      });
      // A parent that goes away too is left to the corpus's periodic check.
      w.on('error', () => {
        w.close();
        if (this.parent === w) this.parent = null;
      });
      this.parent = w;
    } catch {
      // Parent not watchable (permissions): the periodic check still notices a replacement.
    }
  }

  add(dir: string): void {
    if (this.watchers.has(dir)) return;
    try {
      const w = watch(dir, { persistent: false }, (_event, filename) => {
        // No file name (some platforms, overflow): the whole folder must be re-read. A folder
        // moved away reports its own name; re-reading the folder path settles what is there now.
        this.onDirty(filename ? path.join(dir, filename.toString()) : dir);
        if (filename !== null && filename.toString() === path.basename(dir)) this.onDirty(dir);
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
    this.parent?.close();
    this.parent = null;
  }
}
