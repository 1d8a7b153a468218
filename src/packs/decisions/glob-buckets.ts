/**
 * The governed globs a workspace walk tests, grouped by the folder every
 * match of each must lie under (its literal leading folders). A walked entry
 * is tested only against the globs whose folder is its own folder or one
 * above it, and a glob is compiled the first time such an entry comes up: a
 * glob under a folder the workspace does not have costs nothing, and a
 * repository's files are not each tested against every other folder's globs.
 */
import picomatch from 'picomatch';

/** Characters that make a path segment a pattern rather than a name. */
const PATTERN_CHARS = /[*?[\]{}()!+@\\]/;

/**
 * Compiled matchers by glob, shared by every check in this process (a
 * daemon checks the same globs again and again); cleared when it grows past
 * this, so a stream of one-off globs cannot hold memory.
 */
const MATCHER_LIMIT = 4096;
const matchers = new Map<string, (file: string) => boolean>();

function matcherOf(pattern: string): (file: string) => boolean {
  let test = matchers.get(pattern);
  if (test === undefined) {
    if (matchers.size >= MATCHER_LIMIT) matchers.clear();
    test = picomatch(pattern, { dot: true });
    matchers.set(pattern, test);
  }
  return test;
}

/**
 * Segments that may match no segment at all: `a/**` matches `a` itself, and
 * so may an extglob or a brace with an empty alternative.
 */
const MAY_VANISH = /^(?:\*\*|)$|[({]/;

/**
 * The folder (workspace-relative, '' for the root) every path the pattern
 * matches lies under: its leading segments that are plain names, short of
 * the segment that names the match itself. Stopping early is always safe (a
 * shallower folder only means more entries tested).
 */
export function literalFolderOf(pattern: string): string {
  const segments = pattern.split('/');
  let last = segments.length - 1;
  while (last > 0 && MAY_VANISH.test(segments[last] as string)) last--;
  let n = 0;
  while (n < last) {
    const s = segments[n] as string;
    if (s === '' || s === '.' || s === '..' || PATTERN_CHARS.test(s)) break;
    n++;
  }
  return segments.slice(0, n).join('/');
}

interface Entry {
  /** The glob as declared (the key findings are reported under). */
  readonly glob: string;
  /** What is matched against workspace-relative paths. */
  readonly pattern: string;
  matched: boolean;
}

export class GlobBuckets {
  private readonly byFolder = new Map<string, Entry[]>();
  /** Every glob in the order given: the order the unmatched ones are reported in. */
  private readonly all: Entry[] = [];
  private left = 0;
  /** The folder whose entries are being tested, and the globs that apply to it. */
  private folder: string | null = null;
  private applicable: Entry[] = [];

  /** `globs`: declared glob → the pattern to match (the glob without a trailing slash). */
  constructor(globs: ReadonlyMap<string, string>) {
    for (const [glob, pattern] of globs) {
      const folder = literalFolderOf(pattern);
      const list = this.byFolder.get(folder);
      const entry = { glob, pattern, matched: false };
      if (list === undefined) this.byFolder.set(folder, [entry]);
      else list.push(entry);
      this.all.push(entry);
      this.left++;
    }
  }

  /** How many globs no tested entry has matched yet. */
  get unmatchedCount(): number {
    return this.left;
  }

  /** The globs no tested entry matched, in the order given. */
  unmatched(): string[] {
    return this.all.filter((e) => !e.matched).map((e) => e.glob);
  }

  /** Test one walked entry: `child`, the entry's workspace-relative path, in folder `folder`. */
  test(folder: string, child: string): void {
    if (folder !== this.folder) this.enter(folder);
    const list = this.applicable;
    for (let i = 0; i < list.length; i++) {
      const e = list[i] as Entry;
      if (e.matched || !matcherOf(e.pattern)(child)) continue;
      e.matched = true;
      this.left--;
    }
  }

  /** Collect the globs of `folder` and every folder above it. */
  private enter(folder: string): void {
    this.folder = folder;
    const out: Entry[] = [];
    const add = (f: string): void => {
      const list = this.byFolder.get(f);
      if (list !== undefined) for (const e of list) if (!e.matched) out.push(e);
    };
    add('');
    if (folder !== '') {
      let at = folder.indexOf('/');
      while (at !== -1) {
        add(folder.slice(0, at));
        at = folder.indexOf('/', at + 1);
      }
      add(folder);
    }
    this.applicable = out;
  }
}
