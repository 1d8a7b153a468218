/**
 * Relations as an agent needs to see them: for one decision, every
 * supersession and amendment it takes part in (declared by it or by the other
 * side) and whether that link holds — resolved, dangling, ambiguous, or part
 * of a supersession cycle. Also the cycles themselves and superseded records
 * that never say what replaced them, so none of these is silently dropped.
 */
import type { DecisionCorpus as Corpus } from '../corpus-view.js';
import type { Decision, EdgeState, SupersessionEdge } from '../model.js';

export type RelationKind = 'supersedes' | 'supersededBy' | 'amends' | 'amendedBy';

export interface RelationView {
  /** The other decision's id when resolved; otherwise the reference as written. */
  readonly ref: string;
  readonly state: EdgeState;
  /** The other decision's path when resolved (or on a cycle), else null. */
  readonly path: string | null;
  /** For ambiguous links: every decision the reference could mean. */
  readonly candidates: readonly string[];
  /** Records that wrote this link (workspace-relative paths). */
  readonly declaredBy: readonly string[];
  /** The record said the replacement is partial ("partly superseded by …"). */
  readonly partial: boolean;
}

/**
 * Fields the parsing side adds to the model (`edge.partial`, `corpus.amendments`):
 * read where present, so this view works with or without them.
 */
interface ParsedExtras {
  readonly amendments?: readonly SupersessionEdge[];
}

function isPartial(edge: SupersessionEdge): boolean {
  return (edge as SupersessionEdge & { partial?: boolean }).partial === true;
}

export type RelationsOf = Record<RelationKind, RelationView[]>;

/** Every relation `decision` takes part in, by kind, in corpus order. */
export function relationsOf(corpus: Corpus, decision: Decision): RelationsOf {
  const out: RelationsOf = { supersedes: [], supersededBy: [], amends: [], amendedBy: [] };
  for (const edge of corpus.edges) {
    if (edge.fromPath === decision.path) out.supersedes.push(fromEdge(edge, edge.to, edge.toPath));
    if (edge.toPath === decision.path) out.supersededBy.push(fromEdge(edge, edge.from, edge.fromPath));
  }
  const amendments = (corpus as Corpus & ParsedExtras).amendments;
  if (amendments === undefined) collectAmendments(corpus, decision, out);
  else
    for (const edge of amendments) {
      if (edge.fromPath === decision.path) out.amends.push(fromEdge(edge, edge.to, edge.toPath));
      if (edge.toPath === decision.path) out.amendedBy.push(fromEdge(edge, edge.from, edge.fromPath));
    }
  return out;
}

function fromEdge(edge: SupersessionEdge, ref: string, path: string | null): RelationView {
  return {
    ref,
    state: edge.state,
    path,
    candidates: [...(edge.candidates ?? [])],
    declaredBy: [...edge.declaredBy],
    partial: isPartial(edge),
  };
}

/**
 * Amendments are not part of the supersession graph: resolve what this
 * record writes, and find the records that name it from the other side
 * ("B amends A" shows on A as amendedBy B).
 */
function collectAmendments(corpus: Corpus, decision: Decision, out: RelationsOf): void {
  const merged = new Map<string, RelationView & { declaredBy: string[] }>();
  const add = (kind: 'amends' | 'amendedBy', view: RelationView): void => {
    const key = `${kind}\u0000${view.path ?? `ref:${view.ref}`}`;
    const existing = merged.get(key);
    if (existing === undefined) {
      const entry = { ...view, declaredBy: [...view.declaredBy] };
      merged.set(key, entry);
      out[kind].push(entry);
    } else {
      for (const p of view.declaredBy) if (!existing.declaredBy.includes(p)) existing.declaredBy.push(p);
    }
  };
  for (const kind of ['amends', 'amendedBy'] as const) {
    for (const ref of decision.links[kind]) {
      const r = corpus.resolve(ref, decision.corpusPath);
      add(
        kind,
        r.kind === 'found'
          ? {
              ref: r.decision.id,
              state: 'resolved',
              path: r.decision.path,
              candidates: [],
              declaredBy: [decision.path],
              partial: false,
            }
          : {
              ref,
              state: r.kind === 'ambiguous' ? 'ambiguous' : 'dangling',
              path: null,
              candidates: r.kind === 'ambiguous' ? r.candidates.map((c) => c.path) : [],
              declaredBy: [decision.path],
              partial: false,
            },
      );
    }
  }
  for (const other of corpus.decisions) {
    if (other === decision || (other.links.amends.length === 0 && other.links.amendedBy.length === 0))
      continue;
    for (const [kind, inverse] of [
      ['amends', 'amendedBy'],
      ['amendedBy', 'amends'],
    ] as const) {
      for (const ref of other.links[kind]) {
        const r = corpus.resolve(ref, other.corpusPath);
        if (r.kind === 'found' && r.decision.path === decision.path)
          add(inverse, {
            ref: other.id,
            state: 'resolved',
            path: other.path,
            candidates: [],
            declaredBy: [other.path],
            partial: false,
          });
      }
    }
  }
}

/** One supersession cycle: its members' paths and ids, sorted by path. */
export interface SupersessionCycle {
  readonly paths: readonly string[];
  readonly ids: readonly string[];
}

/** The cycle each decision on one belongs to, keyed by path (edges in state `cycle`, joined). */
export function cyclesByPath(corpus: Corpus): ReadonlyMap<string, SupersessionCycle> {
  const parent = new Map<string, string>();
  const ids = new Map<string, string>();
  const find = (p: string): string => {
    let root = p;
    while (parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(p, root);
    return root;
  };
  for (const edge of corpus.edges) {
    if (edge.state !== 'cycle' || edge.fromPath === null || edge.toPath === null) continue;
    for (const [p, id] of [
      [edge.fromPath, edge.from],
      [edge.toPath, edge.to],
    ] as const) {
      if (!parent.has(p)) parent.set(p, p);
      ids.set(p, id);
    }
    const a = find(edge.fromPath);
    const b = find(edge.toPath);
    if (a !== b) parent.set(a, b);
  }
  const groups = new Map<string, string[]>();
  for (const p of parent.keys()) {
    const root = find(p);
    const list = groups.get(root);
    if (list === undefined) groups.set(root, [p]);
    else list.push(p);
  }
  const out = new Map<string, SupersessionCycle>();
  for (const members of groups.values()) {
    members.sort();
    const cycle = { paths: members, ids: members.map((p) => ids.get(p) as string) };
    for (const p of members) out.set(p, cycle);
  }
  return out;
}

/** Decisions whose status is superseded but that no supersession link, resolved or not, names as replaced. */
export function supersededWithoutSuccessor(corpus: Corpus): Decision[] {
  const named = new Set<string>();
  for (const edge of corpus.edges) if (edge.toPath !== null) named.add(edge.toPath);
  return corpus.decisions.filter((d) => d.status === 'superseded' && !named.has(d.path));
}
