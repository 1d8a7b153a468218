/**
 * The decisions graph as a self-contained SVG: related decisions laid out
 * by dagre (newer records above the ones they replace), decisions with no
 * relation in a grid below, a legend of statuses and edge kinds. Every text
 * is escaped; no fonts, images or scripts are fetched. The status page and
 * `moor decisions graph --format svg` draw with this.
 */
import { Graph, layout } from '@dagrejs/dagre';
import {
  type DecisionGraph,
  edgeLabel,
  type GraphEdge,
  type GraphNode,
  STATUS_COLOURS,
} from './graph-view.js';

const NODE_WIDTH = 220;
const NODE_HEIGHT = 52;
const MARGIN = 24;
const GRID_GAP = 16;
const LEGEND_HEIGHT = 58;
const TITLE_CHARS = 32;
const BROKEN = '#c53030';
const INK = '#2d3748';
const AMEND = '#6b46c1';

// XML 1.0 admits no C0 control but tab, newline and CR, and a browser refuses
// the whole SVG at the first one. DEL, C1 and CR are admitted but invisible
// (or worse, when the SVG is printed to a terminal), so every control is drawn
// as a visible `\xHH`, as the CLI shows it. Tab and newline are kept.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching controls is the point
const XML_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Also outside XML's characters: U+FFFE, U+FFFF and a surrogate without its pair.
const XML_NONCHARACTER =
  /[\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text as XML character data or attribute value: well-formed for any string. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_NONCHARACTER, '\ufffd')
    .replace(XML_CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** At most `max` characters, counted by code point so a surrogate pair is never split. */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

interface Placed {
  readonly node: GraphNode;
  readonly x: number;
  readonly y: number;
}

export function graphToSvg(graph: DecisionGraph, options: { readonly maxWidth?: number } = {}): string {
  const related = new Set<string>();
  for (const e of graph.edges) {
    related.add(e.from);
    related.add(e.to);
  }
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 56, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes)
    if (related.has(n.key)) g.setNode(n.key, { width: NODE_WIDTH, height: NODE_HEIGHT });
  graph.edges.forEach((e, i) => {
    g.setEdge(e.from, e.to, { width: 96, height: 14, labelpos: 'c' }, `e${i}`);
  });
  if (related.size > 0) layout(g);
  const laidOut = related.size > 0 ? g.graph() : { width: 0, height: 0 };
  const layoutWidth = laidOut.width ?? 0;
  const layoutHeight = laidOut.height ?? 0;

  const loners = graph.nodes.filter((n) => !related.has(n.key));
  const columns = Math.max(
    1,
    Math.floor(((options.maxWidth ?? Math.max(layoutWidth, 960)) + GRID_GAP) / (NODE_WIDTH + GRID_GAP)),
  );
  const gridColumns = Math.min(columns, Math.max(1, loners.length));
  const gridWidth = gridColumns * (NODE_WIDTH + GRID_GAP) - GRID_GAP;
  const width = Math.max(layoutWidth, loners.length > 0 ? gridWidth : 0, 560) + 2 * MARGIN;
  const relatedTop = MARGIN + LEGEND_HEIGHT;
  const offsetX = MARGIN + (width - 2 * MARGIN - layoutWidth) / 2;
  const gridTop = relatedTop + layoutHeight + (related.size > 0 && loners.length > 0 ? 44 : 0);
  const gridRows = Math.ceil(loners.length / gridColumns);
  const height = gridTop + gridRows * (NODE_HEIGHT + GRID_GAP) + MARGIN;

  const placed: Placed[] = [];
  for (const n of graph.nodes) {
    if (!related.has(n.key)) continue;
    const at = g.node(n.key);
    placed.push({ node: n, x: offsetX + at.x - NODE_WIDTH / 2, y: relatedTop + at.y - NODE_HEIGHT / 2 });
  }
  loners.forEach((n, i) => {
    const column = i % gridColumns;
    const row = Math.floor(i / gridColumns);
    placed.push({
      node: n,
      x: MARGIN + column * (NODE_WIDTH + GRID_GAP),
      y: gridTop + row * (NODE_HEIGHT + GRID_GAP),
    });
  });

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="decision-graph" viewBox="0 0 ${Math.ceil(width)} ${Math.ceil(height)}" width="${Math.ceil(width)}" height="${Math.ceil(height)}" role="img" aria-label="Decision graph: ${graph.nodes.filter((n) => n.status !== 'missing').length} decisions, ${graph.edges.length} relations">`,
    '<defs>',
    marker('arrow', INK),
    marker('arrow-amend', AMEND),
    marker('arrow-broken', BROKEN),
    '</defs>',
    `<style>text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}.id{font-weight:700;font-size:13px}.title{font-size:11.5px}.edge-label{font-size:10.5px}.legend{font-size:11px;fill:${INK}}.caption{font-size:11px;fill:#718096}</style>`,
  );
  parts.push(legend(width));
  graph.edges.forEach((e, i) => {
    const points = g.edge({ v: e.from, w: e.to, name: `e${i}` })?.points ?? [];
    parts.push(edgeSvg(e, points, offsetX, relatedTop));
  });
  if (related.size > 0 && loners.length > 0)
    parts.push(
      `<text class="caption" x="${MARGIN}" y="${gridTop - 14}">Decisions with no supersession or amendment</text>`,
    );
  for (const p of placed) parts.push(nodeSvg(p));
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function marker(id: string, colour: string): string {
  return `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colour}"/></marker>`;
}

function nodeSvg({ node, x, y }: Placed): string {
  const missing = node.status === 'missing';
  const fill = STATUS_COLOURS[node.status];
  const text = missing ? BROKEN : '#ffffff';
  const border = missing
    ? `stroke="${BROKEN}" stroke-width="1.5" stroke-dasharray="5 3"`
    : `stroke="${fill}"`;
  const cls = missing ? 'node missing' : 'node decision';
  return [
    `<g class="${cls}" data-key="${escapeXml(node.key)}" data-status="${node.status}" transform="translate(${x.toFixed(1)},${y.toFixed(1)})">`,
    `<title>${escapeXml(missing ? node.title : `${node.id} ${node.title} (${node.status})`)}</title>`,
    `<rect width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="8" fill="${fill}" ${border}/>`,
    `<text class="id" x="12" y="21" fill="${text}">${escapeXml(truncate(node.id, 28))}${missing ? '' : `<tspan dx="6" font-weight="400" font-size="10.5" opacity="0.85">${escapeXml(node.status)}</tspan>`}</text>`,
    `<text class="title" x="12" y="39" fill="${text}">${escapeXml(truncate(missing ? 'missing record' : node.title, TITLE_CHARS))}</text>`,
    '</g>',
  ].join('');
}

function edgeSvg(
  edge: GraphEdge,
  points: ReadonlyArray<{ x: number; y: number }>,
  dx: number,
  dy: number,
): string {
  if (points.length === 0) return '';
  const broken = edge.state !== 'resolved';
  const colour = broken ? BROKEN : edge.kind === 'amends' ? AMEND : INK;
  const dash = broken ? ' stroke-dasharray="6 4"' : edge.kind === 'amends' ? ' stroke-dasharray="2 3"' : '';
  const markerId = broken ? 'arrow-broken' : edge.kind === 'amends' ? 'arrow-amend' : 'arrow';
  const d = points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${(p.x + dx).toFixed(1)},${(p.y + dy).toFixed(1)}`)
    .join(' ');
  const mid = points[Math.floor(points.length / 2)] as { x: number; y: number };
  const label = escapeXml(edgeLabel(edge));
  return [
    `<g class="edge ${edge.kind} ${edge.state}" data-from="${escapeXml(edge.from)}" data-to="${escapeXml(edge.to)}">`,
    `<path d="${d}" fill="none" stroke="${colour}" stroke-width="1.6"${dash} marker-end="url(#${markerId})"/>`,
    `<text class="edge-label" x="${(mid.x + dx).toFixed(1)}" y="${(mid.y + dy + 4).toFixed(1)}" text-anchor="middle" fill="${colour}" paint-order="stroke" stroke="#ffffff" stroke-width="4">${label}</text>`,
    '</g>',
  ].join('');
}

function legend(width: number): string {
  const items: string[] = [];
  let x = MARGIN;
  const y = MARGIN;
  for (const [status, colour] of Object.entries(STATUS_COLOURS)) {
    if (status === 'missing') continue;
    items.push(
      `<rect x="${x}" y="${y}" width="12" height="12" rx="3" fill="${colour}"/><text class="legend" x="${x + 17}" y="${y + 10}">${status}</text>`,
    );
    x += 30 + status.length * 7.4;
  }
  const line = (x0: number, colour: string, dash: string, label: string, markerId: string) =>
    `<line x1="${x0}" y1="${y + 32}" x2="${x0 + 34}" y2="${y + 32}" stroke="${colour}" stroke-width="1.6"${dash} marker-end="url(#${markerId})"/><text class="legend" x="${x0 + 42}" y="${y + 36}">${label}</text>`;
  items.push(line(MARGIN, INK, '', 'supersedes', 'arrow'));
  items.push(line(MARGIN + 130, AMEND, ' stroke-dasharray="2 3"', 'amends', 'arrow-amend'));
  items.push(
    line(MARGIN + 240, BROKEN, ' stroke-dasharray="6 4"', 'dangling, ambiguous or cycle', 'arrow-broken'),
  );
  return `<g class="legend-box" data-width="${Math.round(width)}">${items.join('')}</g>`;
}
