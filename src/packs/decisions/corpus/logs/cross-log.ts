/**
 * Relations between records of different logs. Each log resolves only its
 * own references, so a relation across logs arrives once from each side that
 * declares it (resolved by the composition); here the two become one edge,
 * and a record of one log superseded by a record of another hands its files
 * on to it, as supersession does within a log.
 */
import type { Decision, DecisionStatus, SupersessionEdge } from '../model.js';
import type { GoverningAnswer, GoverningEntry } from '../resolve/governs.js';

/** One edge per pair of records; the declaring sides merged. Unresolved edges stay as they are. */
export function mergeEdges(edges: readonly SupersessionEdge[]): SupersessionEdge[] {
  const out: SupersessionEdge[] = [];
  const byPair = new Map<string, number>();
  for (const e of edges) {
    if (e.state !== 'resolved' || e.fromPath === null || e.toPath === null) {
      out.push(e);
      continue;
    }
    const key = `${e.fromPath}\u0000${e.toPath}`;
    const at = byPair.get(key);
    if (at === undefined) {
      byPair.set(key, out.length);
      out.push(e);
      continue;
    }
    const first = out[at] as SupersessionEdge;
    const declaredBy = [...new Set([...first.declaredBy, ...e.declaredBy])].sort();
    out[at] = { ...first, declaredBy, ...(first.partial || e.partial ? { partial: true as const } : {}) };
  }
  return out;
}

const IN_FORCE: ReadonlySet<DecisionStatus> = new Set(['accepted', 'amended']);

/**
 * A decision in force that a record of another log supersedes no longer
 * governs: the successor does (or would, when only proposed), naming it as
 * replaced. `successorOf` maps a superseded record's path to its successor.
 */
export function handOnAcrossLogs(
  answer: GoverningAnswer,
  successorOf: ReadonlyMap<string, Decision>,
): GoverningAnswer {
  if (successorOf.size === 0) return answer;
  const governing: GoverningEntry[] = [];
  const proposed = [...answer.proposed];
  const history = [...answer.history];
  for (const entry of answer.governing) {
    const next = successorOf.get(entry.decision.path);
    if (next === undefined) {
      governing.push(entry);
      continue;
    }
    const handed = { decision: next, globs: entry.globs, replaced: [...entry.replaced, entry.decision.id] };
    if (IN_FORCE.has(next.status)) {
      governing.push(handed);
      history.push(entry);
    } else {
      governing.push(entry);
      if (next.status === 'proposed') proposed.push(handed);
    }
  }
  // A record marked superseded by a record of another log: its own log had no successor to hand it to.
  for (const entry of answer.history) {
    const next = successorOf.get(entry.decision.path);
    if (next === undefined || entry.decision.status !== 'superseded') continue;
    const handed = { decision: next, globs: entry.globs, replaced: [...entry.replaced, entry.decision.id] };
    if (IN_FORCE.has(next.status)) governing.push(handed);
    else if (next.status === 'proposed') proposed.push(handed);
  }
  return { file: answer.file, governing, proposed, history };
}
