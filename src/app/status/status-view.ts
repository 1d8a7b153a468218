/**
 * What `GET /status` shows for a request: the daemon's status snapshot and
 * the graph of the workspace its query names (`?workspace=<root>`, among
 * the loaded rooms; default the first one). The graph is rendered once per
 * corpus version and bounded (graph-render.ts), so a reload costs no layout.
 */
import { decisionGraph } from '../../packs/decisions/graph-view.js';
import type { DaemonStatus } from '../../protocol/hello.js';
import { GraphRenderCache } from './graph-render.js';
import { type GraphSection, renderStatusPage } from './status-page.js';
import { loadedCorpus, type RoomView } from './status-snapshot.js';

export function statusPageRenderer(
  snapshot: () => DaemonStatus,
  rooms: () => readonly RoomView[],
  renders: GraphRenderCache = new GraphRenderCache(),
): (query: URLSearchParams) => string {
  return (query) =>
    renderStatusPage(snapshot(), graphSection(rooms(), query.get('workspace') ?? undefined, renders));
}

function graphSection(
  rooms: readonly RoomView[],
  asked: string | undefined,
  renders: GraphRenderCache,
): GraphSection {
  const room = rooms.find((r) => r.root === asked) ?? rooms[0];
  if (room === undefined) return { workspace: undefined, graph: undefined, note: 'No workspace is loaded.' };
  const corpus = loadedCorpus(room);
  if (corpus === undefined)
    return {
      workspace: room.root,
      graph: undefined,
      note: 'This workspace has no decision records loaded yet (they load on the first tool call).',
    };
  corpus.ensureFresh();
  const graph = renders.render(
    `${room.root}\0${room.decisions ?? ''}`,
    corpus.fingerprint,
    () => decisionGraph(corpus),
    drawCommand(room),
  );
  return { workspace: room.root, graph };
}

/** The command that draws this room's whole graph, quoted for a POSIX shell. */
function drawCommand(room: RoomView): string {
  const quote = (text: string) => (/^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
  const decisions = room.decisions === null ? '' : ` -d ${quote(room.decisions)}`;
  return `moor decisions graph -w ${quote(room.root)}${decisions} --format svg > decisions.svg`;
}
