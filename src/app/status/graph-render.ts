/**
 * The status page's graph section, rendered once per corpus version and
 * bounded. Laying a graph out (dagre) is synchronous and grows faster than
 * the graph: on a large corpus one layout held the event loop for seconds,
 * and every socket request waited behind a page that reloads every 5 s. So
 * the render is cached per room and corpus fingerprint (a reload of an
 * unchanged corpus costs a map lookup), and a graph of more than
 * `maxDrawnNodes` nodes is never laid out: the page shows a summary table
 * and the command that draws the whole graph instead.
 */
import { graphToSvg } from '../../packs/decisions/graph-svg.js';
import { type DecisionGraph, STATUS_COLOURS } from '../../packs/decisions/graph-view.js';

/** Above this many nodes the page summarises instead of drawing (a layout stays well under 100 ms). */
export const MAX_DRAWN_NODES = 300;
/** Relations that do not resolve, listed in a summary at most. */
const MAX_LISTED_PROBLEMS = 50;
/** Cached renders kept at once (one per loaded room; more only when rooms come and go). */
const MAX_CACHED = 64;

export interface RenderedGraph {
  /** The section's HTML: the SVG, or the summary of a large graph. */
  readonly html: string;
  /** Decisions (placeholders for unresolved references not counted) and relations. */
  readonly decisions: number;
  readonly relations: number;
  readonly summarized: boolean;
}

export interface GraphRenderOptions {
  /** Lays a graph out as SVG (default graphToSvg; tests count its calls). */
  readonly layout?: (graph: DecisionGraph) => string;
  readonly maxDrawnNodes?: number;
}

export class GraphRenderCache {
  readonly #layout: (graph: DecisionGraph) => string;
  readonly #maxDrawnNodes: number;
  readonly #renders = new Map<string, { readonly version: string; readonly rendered: RenderedGraph }>();

  constructor(options: GraphRenderOptions = {}) {
    this.#layout = options.layout ?? graphToSvg;
    this.#maxDrawnNodes = options.maxDrawnNodes ?? MAX_DRAWN_NODES;
  }

  /**
   * The render of room `room` at corpus `version`; `build` makes the graph
   * and is called only when this version was not rendered yet.
   */
  render(room: string, version: string, build: () => DecisionGraph, drawCommand: string): RenderedGraph {
    const cached = this.#renders.get(room);
    if (cached !== undefined && cached.version === version) return cached.rendered;
    const graph = build();
    const decisions = graph.nodes.filter((n) => n.status !== 'missing').length;
    const summarized = graph.nodes.length > this.#maxDrawnNodes;
    const rendered: RenderedGraph = {
      html: summarized ? summary(graph, decisions, this.#maxDrawnNodes, drawCommand) : this.#layout(graph),
      decisions,
      relations: graph.edges.length,
      summarized,
    };
    this.#renders.delete(room);
    if (this.#renders.size >= MAX_CACHED) this.#renders.delete(this.#renders.keys().next().value as string);
    this.#renders.set(room, { version, rendered });
    return rendered;
  }
}

function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** A large graph as tables: decisions by status, relations by kind and state, the broken ones. */
function summary(graph: DecisionGraph, decisions: number, limit: number, drawCommand: string): string {
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  const statuses = countBy(
    graph.nodes.filter((n) => n.status !== 'missing'),
    (n) => n.status,
  );
  const relations = countBy(graph.edges, (e) => `${e.kind} · ${e.state}`);
  const broken = graph.edges.filter((e) => e.state !== 'resolved');
  const idOf = (key: string) => byKey.get(key)?.id ?? key;
  const rows = (entries: Array<[string, number]>) =>
    entries.map(([name, count]) => `<tr><td>${esc(name)}</td><td>${esc(count)}</td></tr>`).join('');
  const dot = (status: string) =>
    `<span class="dot" style="background:${esc(STATUS_COLOURS[status as keyof typeof STATUS_COLOURS] ?? '#a0aec0')}"></span>`;
  return `<div class="graph-summary">
<p>${esc(decisions)} decisions and ${esc(graph.edges.length)} relations: more than the ${esc(limit)} nodes this page draws. Draw the whole graph with <code>${esc(drawCommand)}</code>.</p>
<table id="graph-statuses"><thead><tr><th>status</th><th>decisions</th></tr></thead><tbody>${statuses
    .map(([name, count]) => `<tr><td>${dot(name)}${esc(name)}</td><td>${esc(count)}</td></tr>`)
    .join('')}</tbody></table>
<table id="graph-relations"><thead><tr><th>relation</th><th>count</th></tr></thead><tbody>${rows(relations)}</tbody></table>
${
  broken.length === 0
    ? ''
    : `<table id="graph-broken"><thead><tr><th>from</th><th>relation</th><th>to</th></tr></thead><tbody>${broken
        .slice(0, MAX_LISTED_PROBLEMS)
        .map(
          (e) =>
            `<tr><td><code>${esc(idOf(e.from))}</code></td><td>${esc(`${e.kind} · ${e.state}`)}</td><td><code>${esc(idOf(e.to))}</code></td></tr>`,
        )
        .join(
          '',
        )}</tbody></table>${broken.length > MAX_LISTED_PROBLEMS ? `<p class="muted">and ${esc(broken.length - MAX_LISTED_PROBLEMS)} more.</p>` : ''}`
}
</div>`;
}
