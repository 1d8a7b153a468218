/**
 * Governed-path globs indexed by their static base, so a file is only tested
 * against globs whose base is the file itself or one of its ancestor folders.
 * Most globs are an exact path or `dir/**`, which need no matcher at all; the
 * rest are compiled once with picomatch (`dot: true`) and shared by pattern.
 */
import picomatch from 'picomatch';
import type { Decision } from '../model.js';
import { globPrefilter } from './glob-prefilter.js';

type Test = (file: string) => boolean;

/** One distinct pattern and the ordinals of every decision that uses it: each pattern is tested once per file. */
interface PatternGroup {
  readonly pattern: string;
  readonly test: Test;
  ords: number[];
}

export interface DirectMatch {
  readonly decision: Decision;
  /** The positive patterns that matched, as written. */
  readonly globs: string[];
}

/** Called once per (decision ordinal, matching pattern). */
export type MatchSink = (ord: number, pattern: string) => void;

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

interface Classified {
  readonly base: string;
  readonly test: Test;
}

/** Decisions share patterns (10,000 records use under 3,000 distinct globs): classify each once. */
const classified = new Map<string, Classified>();

function classify(pattern: string): Classified {
  let c = classified.get(pattern);
  if (c === undefined) {
    c = classifyNew(pattern);
    classified.set(pattern, c);
  }
  return c;
}

function classifyNew(pattern: string): Classified {
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
  const quick = globPrefilter(pattern);
  return (file) => {
    if (quick !== null && !quick(file)) return false;
    let test = compiled.get(pattern);
    if (test === undefined) {
      test = picomatch(pattern, { dot: true });
      compiled.set(pattern, test);
    }
    return test(file);
  };
}

/**
 * Decisions are numbered with small integer ordinals (reused after removal)
 * so per-file work can use arrays instead of maps.
 */
export class GlobIndex {
  /** Per static base: its pattern groups, as a list to iterate and a map to update. */
  private readonly byBase = new Map<string, { list: PatternGroup[]; byPattern: Map<string, PatternGroup> }>();
  private readonly ordOf = new Map<string, number>();
  private readonly decisionAt: (Decision | undefined)[] = [];
  private readonly negsAt: (Test[] | undefined)[] = [];
  private readonly free: number[] = [];
  /**
   * Adds (true) and removals (false) not filed yet, in the order made. Filing
   * every glob of a large corpus cost a cold load about 5% of its time, and
   * only a governing question needs them: the first query files them, in
   * order, so ordinals and lists end up exactly as if filed at once.
   */
  private pending: Array<readonly [boolean, Decision]> = [];

  constructor(decisions: Iterable<Decision> = []) {
    for (const d of decisions) this.add(d);
  }

  /** One more than the largest ordinal in use. */
  get capacity(): number {
    this.catchUp();
    return this.decisionAt.length;
  }

  decision(ord: number): Decision {
    this.catchUp();
    return this.decisionAt[ord] as Decision;
  }

  ordinalOf(d: Decision): number | undefined {
    this.catchUp();
    return this.ordOf.get(d.path);
  }

  hasExclusions(ord: number): boolean {
    this.catchUp();
    return this.negsAt[ord] !== undefined;
  }

  add(d: Decision): void {
    this.pending.push([true, d]);
  }

  remove(d: Decision): void {
    this.pending.push([false, d]);
  }

  /** File what is pending. */
  private catchUp(): void {
    if (this.pending.length === 0) return;
    const ops = this.pending;
    this.pending = [];
    for (const [add, d] of ops) {
      if (add) this.addNow(d);
      else this.removeNow(d);
    }
  }

  private addNow(d: Decision): void {
    if (this.ordOf.has(d.path)) this.removeNow(d);
    const ord = this.free.pop() ?? this.decisionAt.length;
    this.ordOf.set(d.path, ord);
    this.decisionAt[ord] = d;
    const negs: Test[] = [];
    for (const raw of d.governs) {
      if (raw.startsWith('!')) {
        negs.push(classify(raw.slice(1)).test);
        continue;
      }
      const { base, test } = classify(raw);
      let groups = this.byBase.get(base);
      if (groups === undefined) {
        groups = { list: [], byPattern: new Map() };
        this.byBase.set(base, groups);
      }
      const group = groups.byPattern.get(raw);
      if (group === undefined) {
        const created = { pattern: raw, test, ords: [ord] };
        groups.byPattern.set(raw, created);
        groups.list.push(created);
      } else if (!group.ords.includes(ord)) group.ords.push(ord);
    }
    this.negsAt[ord] = negs.length > 0 ? negs : undefined;
  }

  private removeNow(d: Decision): void {
    const ord = this.ordOf.get(d.path);
    if (ord === undefined) return;
    const current = this.decisionAt[ord] as Decision;
    for (const raw of current.governs) {
      if (raw.startsWith('!')) continue;
      const { base } = classify(raw);
      const groups = this.byBase.get(base);
      const group = groups?.byPattern.get(raw);
      if (groups === undefined || group === undefined) continue;
      group.ords = group.ords.filter((o) => o !== ord);
      if (group.ords.length === 0) {
        groups.byPattern.delete(raw);
        groups.list = groups.list.filter((g) => g !== group);
      }
      if (groups.list.length === 0) this.byBase.delete(base);
    }
    this.ordOf.delete(d.path);
    this.decisionAt[ord] = undefined;
    this.negsAt[ord] = undefined;
    this.free.push(ord);
  }

  /** True when one of the decision's `!` globs matches `file`. */
  excludes(ord: number, file: string): boolean {
    this.catchUp();
    const negs = this.negsAt[ord];
    if (negs === undefined) return false;
    for (const t of negs) if (t(file)) return true;
    return false;
  }

  /** Every (decision, pattern) whose positive glob matches `file`, unless the decision excludes it. */
  forEachMatch(file: string, sink: MatchSink): void {
    this.catchUp();
    // Globs are filed under their static base: the root, an ancestor folder of the file, or the file itself.
    const root = this.byBase.get('');
    if (root !== undefined) this.visit(root.list, file, sink);
    for (let i = file.indexOf('/'); i !== -1; i = file.indexOf('/', i + 1)) {
      const groups = this.byBase.get(file.slice(0, i));
      if (groups !== undefined) this.visit(groups.list, file, sink);
    }
    const own = this.byBase.get(file);
    if (own !== undefined) this.visit(own.list, file, sink);
  }

  private visit(list: readonly PatternGroup[], file: string, sink: MatchSink): void {
    for (const group of list) {
      if (!group.test(file)) continue;
      for (const ord of group.ords)
        if (this.negsAt[ord] === undefined || !this.excludes(ord, file)) sink(ord, group.pattern);
    }
  }

  /** Decisions whose positive globs match `file` and none of whose negations do. */
  match(file: string): DirectMatch[] {
    const found = new Map<number, string[]>();
    this.forEachMatch(file, (ord, pattern) => {
      const globs = found.get(ord);
      if (globs === undefined) found.set(ord, [pattern]);
      else if (!globs.includes(pattern)) globs.push(pattern);
    });
    return [...found].map(([ord, globs]) => ({ decision: this.decision(ord), globs }));
  }
}
