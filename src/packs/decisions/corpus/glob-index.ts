/**
 * Governed-path globs indexed by their static base, so a file is only tested
 * against globs whose base is the file itself or one of its ancestor folders.
 * Most globs are an exact path or `dir/**`, which need no matcher at all; the
 * rest are compiled once with picomatch (`dot: true`) and shared by pattern.
 */
import picomatch from 'picomatch';
import type { Decision } from './model.js';

type Test = (file: string) => boolean;

interface Entry {
  readonly decision: Decision;
  readonly pattern: string;
  readonly test: Test;
}

export interface DirectMatch {
  readonly decision: Decision;
  /** The positive patterns that matched, as written. */
  readonly globs: string[];
}

const GLOB_CHARS = /[*?[\]{}()!+@]/;
const compiled = new Map<string, Test>();

/**
 * A pattern with no glob characters names a file or a folder: it matches the
 * path itself and everything below it, as people mean `affects: services/api`.
 */
function under(base: string): Test {
  const prefix = `${base}/`;
  return (file) => file === base || file.startsWith(prefix);
}

function classify(pattern: string): { base: string; test: Test } {
  const p = pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
  if (!GLOB_CHARS.test(p)) return { base: p, test: under(p) };
  if (p.endsWith('/**') && !GLOB_CHARS.test(p.slice(0, -3))) {
    const base = p.slice(0, -3);
    return { base, test: under(base) };
  }
  return { base: picomatch.scan(p).base, test: lazyMatcher(p) };
}

/**
 * Compiling thousands of picomatch matchers at load costs more than the
 * rest of governance; most are never asked. Compile on first use, once per
 * distinct pattern.
 */
function lazyMatcher(pattern: string): Test {
  return (file) => {
    let test = compiled.get(pattern);
    if (test === undefined) {
      test = picomatch(pattern, { dot: true });
      compiled.set(pattern, test);
    }
    return test(file);
  };
}

/** '', 'a', 'a/b', 'a/b/c.ts' for 'a/b/c.ts': every key a governing glob can be filed under. */
function keysOf(file: string): string[] {
  const keys = [''];
  for (let i = file.indexOf('/'); i !== -1; i = file.indexOf('/', i + 1)) keys.push(file.slice(0, i));
  keys.push(file);
  return keys;
}

export class GlobIndex {
  private readonly byBase = new Map<string, Entry[]>();
  private readonly negations = new Map<string, Test[]>();
  private readonly basesOf = new Map<string, string[]>();

  constructor(decisions: Iterable<Decision> = []) {
    for (const d of decisions) this.add(d);
  }

  add(d: Decision): void {
    const bases: string[] = [];
    const negs: Test[] = [];
    for (const raw of d.governs) {
      if (raw.startsWith('!')) {
        negs.push(classify(raw.slice(1)).test);
        continue;
      }
      const { base, test } = classify(raw);
      const list = this.byBase.get(base);
      const entry: Entry = { decision: d, pattern: raw, test };
      if (list === undefined) this.byBase.set(base, [entry]);
      else list.push(entry);
      if (!bases.includes(base)) bases.push(base);
    }
    if (negs.length > 0) this.negations.set(d.path, negs);
    if (bases.length > 0) this.basesOf.set(d.path, bases);
  }

  remove(d: Decision): void {
    for (const base of this.basesOf.get(d.path) ?? []) {
      const list = this.byBase.get(base);
      if (list === undefined) continue;
      const kept = list.filter((e) => e.decision.path !== d.path);
      if (kept.length === 0) this.byBase.delete(base);
      else this.byBase.set(base, kept);
    }
    this.basesOf.delete(d.path);
    this.negations.delete(d.path);
  }

  /** True when one of the decision's `!` globs matches `file`. */
  excludes(d: Decision, file: string): boolean {
    return this.negations.get(d.path)?.some((t) => t(file)) ?? false;
  }

  /** Decisions whose positive globs match `file` and none of whose negations do. */
  match(file: string): DirectMatch[] {
    const found = new Map<Decision, string[]>();
    for (const key of keysOf(file)) {
      const entries = this.byBase.get(key);
      if (entries === undefined) continue;
      for (const e of entries) {
        if (!e.test(file)) continue;
        const globs = found.get(e.decision);
        if (globs === undefined) found.set(e.decision, [e.pattern]);
        else if (!globs.includes(e.pattern)) globs.push(e.pattern);
      }
    }
    const out: DirectMatch[] = [];
    for (const [decision, globs] of found) if (!this.excludes(decision, file)) out.push({ decision, globs });
    return out;
  }
}
