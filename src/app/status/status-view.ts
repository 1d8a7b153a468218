/**
 * What `GET /status` shows for a request: the daemon's status snapshot and
 * the graph of the workspace its query names (`?workspace=<root>`, among
 * the loaded rooms; default the first one).
 */
import { decisionGraph } from '../../packs/decisions/graph-view.js';
import type { DaemonStatus } from '../../protocol/hello.js';
import { type GraphSection, renderStatusPage } from './status-page.js';
import { loadedCorpus, type RoomView } from './status-snapshot.js';

export function statusPageRenderer(
  snapshot: () => DaemonStatus,
  rooms: () => readonly RoomView[],
): (query: URLSearchParams) => string {
  return (query) => renderStatusPage(snapshot(), graphSection(rooms(), query.get('workspace') ?? undefined));
}

function graphSection(rooms: readonly RoomView[], asked: string | undefined): GraphSection {
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
  return { workspace: room.root, graph: decisionGraph(corpus) };
}
