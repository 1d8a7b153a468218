/**
 * Which decisions govern a file. Globs pick the decisions that talk about the
 * file; supersession then hands governance on: a replaced decision's paths are
 * governed by its successor (to the end of the chain), and the answer names
 * the decisions that were replaced on the way. Where a decision's governance
 * ends up does not depend on the file, so it is worked out once per decision
 * (a "plan") and reused for every file it matches.
 */

import type { Decision, DecisionStatus } from '../model.js';
import type { GlobIndex } from './glob-index.js';
import type { SupersessionGraph } from './graph.js';

export interface GoverningEntry {
  readonly decision: Decision;
  /** Patterns that matched the file, on this decision or on the ones it replaced. */
  readonly globs: string[];
  /** Ids of the decisions this one replaced for this file, oldest first; empty when it governs directly. */
  readonly replaced: string[];
}

export interface GoverningAnswer {
  readonly file: string;
  /** Accepted or amended decisions in force for the file. */
  readonly governing: GoverningEntry[];
  /** Proposed decisions that would govern the file (directly, or by replacing one that does). */
  readonly proposed: GoverningEntry[];
  /** Matching decisions that do not govern: superseded, rejected, deprecated or of unknown status. */
  readonly history: GoverningEntry[];
}

const GOVERNING = 0;
const PROPOSED = 1;
const HISTORY = 2;
type List = typeof GOVERNING | typeof PROPOSED | typeof HISTORY;

/** Where a match on one decision lands. */
interface Placement {
  readonly ord: number;
  readonly list: List;
  /** Ids replaced on the way here (empty for the matched decision itself). */
  readonly via: readonly string[];
  /** Successors on the way that have `!` globs: if one excludes the file, this placement does not apply. */
  readonly guards: readonly number[];
}

const IN_FORCE: ReadonlySet<DecisionStatus> = new Set(['accepted', 'amended']);
/** A successor with one of these statuses took effect, so its predecessor is replaced. */
const TOOK_EFFECT: ReadonlySet<DecisionStatus> = new Set(['accepted', 'amended', 'superseded']);

function addAll(into: string[], from: readonly string[]): void {
  for (const x of from) if (!into.includes(x)) into.push(x);
}

export class Governance {
  private readonly plans: (Placement[] | undefined)[] = [];
  /** Per ordinal: the file number it was last seen for, and its entry for that file. */
  private seen = new Int32Array(0);
  private entries: (GoverningEntry | undefined)[] = [];
  private lists: List[] = [];
  private fileNo = 0;

  /** Position of each ordinal in the sorted decision list, so answers sort by integers. */
  private rank: Int32Array | null = null;

  /** `sorted`: every decision in answer order (number, then path). */
  constructor(
    private readonly globs: GlobIndex,
    private readonly graph: SupersessionGraph,
    private readonly sorted: readonly Decision[],
  ) {}

  /** One answer per input path, in input order. Paths must already be workspace-relative and safe. */
  governing(files: readonly string[]): GoverningAnswer[] {
    if (this.seen.length < this.globs.capacity) this.seen = new Int32Array(this.globs.capacity * 2);
    if (this.rank === null) {
      const rank = new Int32Array(this.globs.capacity);
      this.sorted.forEach((d, i) => {
        const ord = this.globs.ordinalOf(d);
        if (ord !== undefined) rank[ord] = i;
      });
      this.rank = rank;
    }
    return files.map((file) => this.forFile(file, this.rank as Int32Array));
  }

  private forFile(file: string, rank: Int32Array): GoverningAnswer {
    const fileNo = ++this.fileNo;
    const touched: number[] = [];
    this.globs.forEachMatch(file, (origin, pattern) => {
      for (const p of this.plan(origin)) {
        if (p.guards.length > 0 && p.guards.some((g) => this.globs.excludes(g, file))) continue;
        let entry = this.seen[p.ord] === fileNo ? this.entries[p.ord] : undefined;
        if (entry === undefined) {
          entry = { decision: this.globs.decision(p.ord), globs: [], replaced: [] };
          this.seen[p.ord] = fileNo;
          this.entries[p.ord] = entry;
          this.lists[p.ord] = p.list;
          touched.push(p.ord);
        }
        if (!entry.globs.includes(pattern)) entry.globs.push(pattern);
        addAll(entry.replaced, p.via);
      }
    });
    touched.sort((a, b) => (rank[a] as number) - (rank[b] as number));
    const out: [GoverningEntry[], GoverningEntry[], GoverningEntry[]] = [[], [], []];
    for (const ord of touched) out[this.lists[ord] as List].push(this.entries[ord] as GoverningEntry);
    return { file, governing: out[GOVERNING], proposed: out[PROPOSED], history: out[HISTORY] };
  }

  /** Where matches on the decision with ordinal `origin` land; worked out once. */
  private plan(origin: number): Placement[] {
    const cached = this.plans[origin];
    if (cached !== undefined) return cached;
    const out: Placement[] = [];
    const seen = new Set<Decision>();
    const ordOf = (d: Decision): number => this.globs.ordinalOf(d) ?? -1;
    const guard = (guards: readonly number[], ord: number): readonly number[] =>
      this.globs.hasExclusions(ord) ? [...guards, ord] : guards;
    const walk = (d: Decision, via: readonly string[], guards: readonly number[]): void => {
      const ord = ordOf(d);
      if (ord < 0 || seen.has(d)) return;
      seen.add(d);
      const successors = this.graph.successorsOf(d);
      const effective = successors.filter((s) => TOOK_EFFECT.has(s.status));
      if (d.status === 'superseded' || effective.length > 0) {
        out.push({ ord, list: HISTORY, via, guards });
        const next = [...via, d.id];
        for (const s of effective.length > 0 ? effective : successors) walk(s, next, guard(guards, ordOf(s)));
      } else if (IN_FORCE.has(d.status)) {
        out.push({ ord, list: GOVERNING, via, guards });
        // Proposals to replace a decision in force are worth knowing before changing its files.
        for (const s of successors) {
          const so = ordOf(s);
          if (s.status === 'proposed' && so >= 0)
            out.push({ ord: so, list: PROPOSED, via: [...via, d.id], guards: guard(guards, so) });
        }
      } else {
        out.push({ ord, list: d.status === 'proposed' ? PROPOSED : HISTORY, via, guards });
      }
    };
    walk(this.globs.decision(origin), [], []);
    this.plans[origin] = out;
    return out;
  }
}
