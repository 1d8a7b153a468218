/**
 * The decisions graph as people look at it: a node per decision, an edge per
 * supersession or amendment, with the corpus's verdict on each edge
 * (resolved, dangling, ambiguous, cycle). A reference that resolves to no
 * record becomes a placeholder node, so a dangling edge still has somewhere
 * to point. Rendered as DOT and Mermaid text here, as SVG in graph-svg.ts.
 */
import type { DecisionCorpus as Corpus } from './corpus/corpus-view.js';
import type { DecisionStatus, EdgeState, SupersessionEdge } from './corpus/model.js';

export type RelationKind = 'supersedes' | 'amends';

export interface GraphNode {
  /** Unique in the graph: the record's path, or `ref:` + the unresolved reference. */
  readonly key: string;
  /** The display id (`0018`, or the reference as written for a placeholder). */
  readonly id: string;
  readonly title: string;
  /** A placeholder for a reference no record answers is `missing`. */
  readonly status: DecisionStatus | 'missing';
}

export interface GraphEdge {
  /** The newer record (the one that supersedes or amends). */
  readonly from: string;
  readonly to: string;
  readonly kind: RelationKind;
  readonly state: EdgeState;
  readonly partial: boolean;
}

export interface DecisionGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

export const STATUS_COLOURS: Readonly<Record<GraphNode['status'], string>> = {
  accepted: '#2f855a',
  proposed: '#2b6cb0',
  amended: '#6b46c1',
  superseded: '#718096',
  deprecated: '#c05621',
  rejected: '#c53030',
  unknown: '#a0aec0',
  missing: '#ffffff',
};

export function decisionGraph(corpus: Corpus): DecisionGraph {
  const nodes = new Map<string, GraphNode>();
  for (const d of corpus.decisions)
    nodes.set(d.path, { key: d.path, id: d.id, title: d.title, status: d.status });
  const endpoint = (id: string, path: string | null): string => {
    if (path !== null && nodes.has(path)) return path;
    const key = `ref:${id}`;
    if (!nodes.has(key)) nodes.set(key, { key, id, title: `no record answers “${id}”`, status: 'missing' });
    return key;
  };
  const edges: GraphEdge[] = [];
  const add = (list: readonly SupersessionEdge[], kind: RelationKind) => {
    for (const e of list) {
      edges.push({
        from: endpoint(e.from, e.fromPath),
        to: endpoint(e.to, e.toPath),
        kind,
        state: e.state,
        partial: e.partial === true,
      });
    }
  };
  add(corpus.edges, 'supersedes');
  add(corpus.amendments, 'amends');
  return { nodes: [...nodes.values()], edges };
}

/** What an edge's label says: its kind, and what is wrong with it. */
export function edgeLabel(edge: GraphEdge): string {
  const kind = edge.partial ? `partly ${edge.kind}` : edge.kind;
  return edge.state === 'resolved' ? kind : `${kind} (${edge.state})`;
}

export function nodeLabel(node: GraphNode): string {
  return node.status === 'missing' ? `${node.id}: missing` : `${node.id} ${node.title}`;
}

/** Graphviz DOT, newer records above the ones they replace. */
export function graphToDot(graph: DecisionGraph): string {
  const q = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
  const lines = [
    'digraph decisions {',
    '  rankdir=TB;',
    '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontcolor="#ffffff"];',
    '  edge [fontname="Helvetica", fontsize=10];',
  ];
  for (const n of graph.nodes) {
    const missing = n.status === 'missing';
    const style = missing ? ', style="rounded,dashed", color="#c53030", fontcolor="#c53030"' : '';
    lines.push(
      `  ${q(n.key)} [label=${q(missing ? `${n.id}\nmissing` : `${n.id}\n${n.title}`)}, fillcolor=${q(STATUS_COLOURS[n.status])}${style}];`,
    );
  }
  for (const e of graph.edges) {
    const broken = e.state !== 'resolved';
    const style = broken ? 'dashed' : e.kind === 'amends' ? 'dotted' : 'solid';
    const colour = broken ? '#c53030' : e.kind === 'amends' ? '#6b46c1' : '#2d3748';
    lines.push(
      `  ${q(e.from)} -> ${q(e.to)} [label=${q(edgeLabel(e))}, style=${style}, color=${q(colour)}, fontcolor=${q(colour)}];`,
    );
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** A Mermaid flowchart (what GitHub renders in Markdown). */
export function graphToMermaid(graph: DecisionGraph): string {
  const ids = new Map(graph.nodes.map((n, i) => [n.key, `n${i}`]));
  // Mermaid labels: quotes and angle brackets as entities, nothing else is special inside "…".
  const text = (s: string) => s.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
  const lines = ['flowchart TB'];
  for (const n of graph.nodes) {
    const label = n.status === 'missing' ? `${n.id}: missing` : `${n.id} ${n.title}`;
    lines.push(`  ${ids.get(n.key)}["${text(label)}"]:::${n.status}`);
  }
  const broken: number[] = [];
  graph.edges.forEach((e, i) => {
    const arrow = e.state !== 'resolved' || e.kind === 'amends' ? '-.->' : '-->';
    lines.push(`  ${ids.get(e.from)} ${arrow}|${text(edgeLabel(e))}| ${ids.get(e.to)}`);
    if (e.state !== 'resolved') broken.push(i);
  });
  for (const [status, colour] of Object.entries(STATUS_COLOURS)) {
    lines.push(
      status === 'missing'
        ? '  classDef missing fill:#fff,stroke:#c53030,stroke-dasharray:4 3,color:#c53030'
        : `  classDef ${status} fill:${colour},stroke:${colour},color:#fff`,
    );
  }
  if (broken.length > 0) lines.push(`  linkStyle ${broken.join(',')} stroke:#c53030,color:#c53030`);
  return `${lines.join('\n')}\n`;
}
