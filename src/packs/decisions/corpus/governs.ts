/**
 * Which decisions govern a file. Globs pick the decisions that talk about the
 * file; supersession then hands governance on: a replaced decision's paths are
 * governed by its successor (to the end of the chain), and the answer names
 * the decisions that were replaced on the way.
 */
import type { GlobIndex } from './glob-index.js';
import type { SupersessionGraph } from './graph.js';
import type { Decision, DecisionStatus } from './model.js';

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

const IN_FORCE: ReadonlySet<DecisionStatus> = new Set(['accepted', 'amended']);
/** A successor with one of these statuses took effect, so its predecessor is replaced. */
const TOOK_EFFECT: ReadonlySet<DecisionStatus> = new Set(['accepted', 'amended', 'superseded']);

function compareDecisions(a: GoverningEntry, b: GoverningEntry): number {
  const na = a.decision.number ?? Number.MAX_SAFE_INTEGER;
  const nb = b.decision.number ?? Number.MAX_SAFE_INTEGER;
  if (na !== nb) return na - nb;
  return a.decision.path < b.decision.path ? -1 : a.decision.path > b.decision.path ? 1 : 0;
}

class Collector {
  private readonly lists = {
    governing: new Map<Decision, GoverningEntry>(),
    proposed: new Map<Decision, GoverningEntry>(),
    history: new Map<Decision, GoverningEntry>(),
  };

  add(
    list: keyof Collector['lists'],
    decision: Decision,
    globs: readonly string[],
    replaced: readonly string[],
  ): void {
    const map = this.lists[list];
    const entry = map.get(decision);
    if (entry === undefined) {
      map.set(decision, { decision, globs: [...globs], replaced: [...replaced] });
      return;
    }
    for (const g of globs) if (!entry.globs.includes(g)) entry.globs.push(g);
    for (const r of replaced) if (!entry.replaced.includes(r)) entry.replaced.push(r);
  }

  answer(file: string): GoverningAnswer {
    const sorted = (m: Map<Decision, GoverningEntry>): GoverningEntry[] =>
      [...m.values()].sort(compareDecisions);
    const governing = sorted(this.lists.governing);
    const history = sorted(this.lists.history).filter((h) => !this.lists.governing.has(h.decision));
    return { file, governing, proposed: sorted(this.lists.proposed), history };
  }
}

export class Governance {
  constructor(
    private readonly globs: GlobIndex,
    private readonly graph: SupersessionGraph,
  ) {}

  /** One answer per input path, in input order. Paths must already be workspace-relative and safe. */
  governing(files: readonly string[]): GoverningAnswer[] {
    return files.map((file) => this.forFile(file));
  }

  private forFile(file: string): GoverningAnswer {
    const out = new Collector();
    for (const { decision, globs } of this.globs.match(file))
      this.place(out, file, decision, globs, [], new Set());
    return out.answer(file);
  }

  /** Successors that took effect; a decision with any is replaced even if its own status was never updated. */
  private effectiveSuccessors(d: Decision): readonly Decision[] {
    return this.graph.successorsOf(d).filter((s) => TOOK_EFFECT.has(s.status));
  }

  private place(
    out: Collector,
    file: string,
    d: Decision,
    globs: string[],
    via: string[],
    seen: Set<Decision>,
  ): void {
    if (seen.has(d)) return;
    seen.add(d);
    // A successor inherits its predecessor's paths, except those it explicitly excludes.
    if (via.length > 0 && this.globs.excludes(d, file)) return;
    const effective = this.effectiveSuccessors(d);
    if (d.status === 'superseded' || effective.length > 0) {
      out.add('history', d, globs, via);
      const next = [...via, d.id];
      const successors = effective.length > 0 ? effective : this.graph.successorsOf(d);
      for (const s of successors) this.place(out, file, s, globs, next, seen);
      return;
    }
    if (IN_FORCE.has(d.status)) {
      out.add('governing', d, globs, via);
      // Proposals to replace a decision in force are worth knowing before changing its files.
      for (const s of this.graph.successorsOf(d))
        if (s.status === 'proposed') out.add('proposed', s, globs, [...via, d.id]);
      return;
    }
    if (d.status === 'proposed') out.add('proposed', d, globs, via);
    else out.add('history', d, globs, via);
  }
}
