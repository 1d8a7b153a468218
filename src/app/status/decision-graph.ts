/**
 * `moor decisions graph` and the status page's graph: a workspace's
 * supersession and amendment graph as SVG, DOT or Mermaid, from the same
 * corpus the tools read.
 */
import { MoorError } from '../../errors.js';
import { graphToSvg } from '../../packs/decisions/graph-svg.js';
import {
  type DecisionGraph,
  decisionGraph,
  graphToDot,
  graphToMermaid,
} from '../../packs/decisions/graph-view.js';
import { openDecisions } from '../../packs/decisions/state.js';
import type { ResolvedWorkspace } from '../commands/options.js';

export type GraphFormat = 'svg' | 'dot' | 'mermaid';
export const GRAPH_FORMATS: readonly GraphFormat[] = ['svg', 'dot', 'mermaid'];

export function renderGraph(graph: DecisionGraph, format: GraphFormat): string {
  if (format === 'dot') return graphToDot(graph);
  if (format === 'mermaid') return graphToMermaid(graph);
  return graphToSvg(graph);
}

/** The graph of one repository's decisions, loaded once (no watcher). */
export function repositoryGraph(resolved: ResolvedWorkspace, format: GraphFormat): string {
  const state = openDecisions(resolved.root, { decisionsDir: resolved.decisionsDir, watch: false });
  if (state.kind === 'missing') throw new MoorError('CORPUS_NOT_FOUND', state.message);
  try {
    return renderGraph(decisionGraph(state.corpus), format);
  } finally {
    state.corpus.close();
  }
}
