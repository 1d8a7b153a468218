/**
 * The supersession graph. Either side may declare an edge (A "supersedes B",
 * or B "superseded by A"); both declarations merge into one edge. Edges that
 * cannot be resolved stay visible as dangling or ambiguous, and edges on a
 * cycle are marked so governance never loops.
 */
import type { Decision, EdgeState, SupersessionEdge } from '../model.js';
import type { ResolveResult } from './resolve.js';

/** Resolves a reference as written in the record at `fromCorpusPath`. */
export type Resolver = (ref: string, fromCorpusPath: string) => ResolveResult;

export interface SuccessorChain {
  /** The decision at the end of the chain (no further resolved successor). */
  readonly decision: Decision;
  /** Ids replaced on the way, starting with the decision asked about. */
  readonly via: readonly string[];
}

interface EdgeDraft {
  from: string;
  to: string;
  fromPath: string | null;
  toPath: string | null;
  state: EdgeState;
  declaredBy: string[];
  candidates?: string[];
  partial?: true;
}

/** The two sides of one kind of relation: `forward` is written by the newer record, `backward` by the older. */
type RelationSides = readonly ['supersedes', 'supersededBy'] | readonly ['amends', 'amendedBy'];

/**
 * One edge per related pair, whichever side declared it (both merge), in
 * `declaredBy` order; `from` is the newer record (the one that supersedes
 * or amends). Unresolved refs stay as dangling or ambiguous edges.
 */
function relationEdges(declaring: Iterable<Decision>, sides: RelationSides, resolve: Resolver): EdgeDraft[] {
  const drafts = new Map<string, EdgeDraft>();
  const declare = (d: Decision, ref: string, successorSide: boolean): void => {
    const r = resolve(ref, d.corpusPath);
    const self = { id: d.id, path: d.path };
    const other =
      r.kind === 'found'
        ? { id: r.decision.id, path: r.decision.path as string | null }
        : { id: ref, path: null };
    const [from, to] = successorSide ? [other, self] : [self, other];
    const key = `${from.path ?? `ref:${from.id}`}\u0000${to.path ?? `ref:${to.id}`}`;
    const partial = d.links.partial?.includes(ref) === true;
    const existing = drafts.get(key);
    if (existing !== undefined) {
      if (!existing.declaredBy.includes(d.path)) existing.declaredBy.push(d.path);
      if (partial) existing.partial = true;
      return;
    }
    const draft: EdgeDraft = {
      from: from.id,
      to: to.id,
      fromPath: from.path,
      toPath: to.path,
      state: r.kind === 'found' ? 'resolved' : r.kind === 'ambiguous' ? 'ambiguous' : 'dangling',
      declaredBy: [d.path],
    };
    if (r.kind === 'ambiguous') draft.candidates = r.candidates.map((c) => c.path);
    if (partial) draft.partial = true;
    drafts.set(key, draft);
  };
  const [forward, backward] = sides;
  for (const d of declaring) {
    for (const ref of d.links[forward]) declare(d, ref, false);
    for (const ref of d.links[backward]) declare(d, ref, true);
  }
  const list = [...drafts.values()];
  for (const e of list) e.declaredBy.sort();
  return list;
}

function sortEdges(list: EdgeDraft[]): SupersessionEdge[] {
  const keyed = list.map((e) => ({ e, key: `${e.fromPath ?? e.from}\u0000${e.toPath ?? e.to}` }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.e);
}

/** Amendment edges (`from` amends `to`), merged from both sides and resolved like supersession. */
export function amendmentEdges(declaring: Iterable<Decision>, resolve: Resolver): SupersessionEdge[] {
  return sortEdges(relationEdges(declaring, ['amends', 'amendedBy'], resolve));
}

export class SupersessionGraph {
  readonly edges: readonly SupersessionEdge[];
  private readonly successors = new Map<string, Decision[]>();
  private readonly predecessors = new Map<string, Decision[]>();

  /**
   * `declaring`: the decisions that write any supersession relation (the rest
   * cannot add edges); `current` maps a path to the decision now at that path,
   * since cached resolutions may hold an earlier version of the same record.
   */
  constructor(
    declaring: Iterable<Decision>,
    resolve: Resolver,
    current: (path: string) => Decision | undefined,
  ) {
    const list = relationEdges(declaring, ['supersedes', 'supersededBy'], resolve);
    markCycles(list);
    this.edges = sortEdges(list);
    for (const e of this.edges) {
      if (e.state !== 'resolved' || e.fromPath === null || e.toPath === null) continue;
      const from = current(e.fromPath);
      const to = current(e.toPath);
      if (from === undefined || to === undefined) continue;
      appendTo(this.successors, to.path, from);
      appendTo(this.predecessors, from.path, to);
    }
  }

  /** Direct successors over resolved, non-cycle edges. */
  successorsOf(d: Decision): readonly Decision[] {
    return this.successors.get(d.path) ?? [];
  }

  /** Direct predecessors (decisions this one supersedes) over resolved, non-cycle edges. */
  predecessorsOf(d: Decision): readonly Decision[] {
    return this.predecessors.get(d.path) ?? [];
  }

  /**
   * Where following successors from `d` ends: one entry per chain end. A
   * decision with no successors is its own end with an empty `via`.
   */
  finalSuccessors(d: Decision): SuccessorChain[] {
    const out: SuccessorChain[] = [];
    const seen = new Set<string>();
    const walk = (current: Decision, via: string[]): void => {
      const next = this.successorsOf(current);
      if (next.length === 0) {
        if (!seen.has(current.path)) out.push({ decision: current, via });
        seen.add(current.path);
        return;
      }
      for (const s of next) walk(s, [...via, current.id]);
    };
    walk(d, []);
    return out;
  }
}

function appendTo(map: Map<string, Decision[]>, key: string, d: Decision): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [d]);
  else if (!list.includes(d)) list.push(d);
}

/** Tarjan's SCC over resolved edges (iterative: chains in real corpora can be long). */
function markCycles(edges: EdgeDraft[]): void {
  const out = new Map<string, string[]>();
  for (const e of edges) {
    if (e.state !== 'resolved' || e.fromPath === null || e.toPath === null) continue;
    if (e.fromPath === e.toPath) e.state = 'cycle';
    else appendPath(out, e.fromPath, e.toPath);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const component = new Map<string, number>();
  let counter = 0;
  let components = 0;
  for (const root of out.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number };
      const targets = out.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const t = targets[frame.next++] as string;
        if (!index.has(t)) {
          index.set(t, counter);
          low.set(t, counter++);
          stack.push(t);
          onStack.add(t);
          work.push({ node: t, next: 0 });
        } else if (onStack.has(t)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(t) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined)
        low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        for (;;) {
          const n = stack.pop() as string;
          onStack.delete(n);
          component.set(n, components);
          if (n === frame.node) break;
        }
        components++;
      }
    }
  }
  for (const e of edges) {
    if (e.state !== 'resolved' || e.fromPath === null || e.toPath === null) continue;
    const c = component.get(e.fromPath);
    if (c !== undefined && c === component.get(e.toPath)) e.state = 'cycle';
  }
}

function appendPath(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
