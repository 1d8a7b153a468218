/**
 * State derived from the whole set of records, rebuilt after every batch of
 * changes: the sorted decision list, corpus-level problems (duplicate
 * numbers), reference resolution and the supersession graph.
 */
import path from 'node:path';
import { SupersessionGraph } from './graph.js';
import type { Decision, Problem } from './model.js';
import { RefIndex } from './resolve.js';

export interface Derived {
  readonly decisions: readonly Decision[];
  readonly problems: readonly Problem[];
  readonly refs: RefIndex;
  readonly graph: SupersessionGraph;
}

export function compareDecisions(a: Decision, b: Decision): number {
  const na = a.number ?? Number.POSITIVE_INFINITY;
  const nb = b.number ?? Number.POSITIVE_INFINITY;
  if (na !== nb) return na < nb ? -1 : 1;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function compareProblems(a: Problem, b: Problem): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

function duplicateNumbers(decisions: readonly Decision[]): Problem[] {
  const out: Problem[] = [];
  // Sorted by number, so duplicates are neighbours.
  for (let i = 0; i < decisions.length; ) {
    const n = decisions[i]?.number ?? null;
    let j = i + 1;
    while (n !== null && j < decisions.length && decisions[j]?.number === n) j++;
    if (j - i > 1) {
      const group = decisions.slice(i, j);
      for (const d of group) {
        const others = group.filter((o) => o !== d).map((o) => o.path);
        out.push({
          path: d.path,
          kind: 'duplicate-number',
          message: `number ${n} is also used by ${others.join(', ')}; references to ${n} are ambiguous`,
        });
      }
    }
    i = j;
  }
  return out;
}

/**
 * `corpusPrefix`: the corpus folder relative to the workspace root, so
 * references may be written relative to either.
 */
export function derive(
  decisions: Decision[],
  fileProblems: readonly Problem[],
  root: string,
  corpusDir: string,
): Derived {
  decisions.sort(compareDecisions);
  const prefix = path.relative(root, corpusDir).split(path.sep).join('/');
  const refs = new RefIndex(decisions, prefix);
  const graph = new SupersessionGraph(decisions, refs);
  const problems = [...fileProblems, ...duplicateNumbers(decisions)].sort(compareProblems);
  return { decisions, problems, refs, graph };
}
