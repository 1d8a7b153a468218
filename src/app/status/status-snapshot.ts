/**
 * The parts of the daemon's status the composition owns: loaded rooms with
 * what their corpus holds, durable tasks (counts and the latest), and which
 * observability features are on. `moor daemon status --json`, the status
 * page and the scrape-time gauges all read this one snapshot.
 */

import type { Workspace } from '../../host/call-scope.js';
import type { Pack } from '../../host/pack.js';
import type { DecisionCorpus as Corpus } from '../../packs/decisions/corpus/corpus-view.js';
import type { DecisionsState } from '../../packs/decisions/state.js';
import type { RoomStatus, TasksStatus } from '../../protocol/hello.js';
import { uniqueKeyPrefixes } from '../../protocol/session-prefix.js';
import type { TaskRecord } from '../../store/task-store.js';

export const RECENT_TASKS = 20;

/** A loaded room as the snapshot sees it. */
export interface RoomView {
  readonly root: string;
  /** The room's own decisions folder, when it has one. */
  readonly decisions: string | null;
  readonly connections: number;
  readonly workspace: Workspace;
  /** The decisions pack serving this room (its own instance when the room has its own --decisions). */
  readonly decisionsPack: Pack<DecisionsState>;
}

/** The room's corpus when it is loaded already (a status view never loads one). */
export function loadedCorpus(room: RoomView): Corpus | undefined {
  const state = room.workspace.opened(room.decisionsPack);
  return state?.kind === 'loaded' ? state.corpus : undefined;
}

export function roomStatus(room: RoomView): RoomStatus {
  const corpus = loadedCorpus(room);
  const base = { root: room.root, decisions: room.decisions, holders: room.connections };
  if (corpus === undefined) return { ...base, loaded: false, decisionCount: null, problems: null };
  const brokenEdges = [...corpus.edges, ...corpus.amendments].filter((e) => e.state !== 'resolved').length;
  return {
    ...base,
    loaded: true,
    decisionCount: corpus.decisions.length,
    problems: corpus.problems.length + brokenEdges,
  };
}

export function taskCounts(tasks: readonly TaskRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const task of tasks) counts[task.status] = (counts[task.status] ?? 0) + 1;
  return counts;
}

export function tasksStatus(tasks: readonly TaskRecord[]): TasksStatus {
  const latest = [...tasks].sort((a, b) => b.lastUpdatedAt - a.lastUpdatedAt).slice(0, RECENT_TASKS);
  const owners = uniqueKeyPrefixes(latest.map((task) => task.ownerKey));
  const recent = latest.map((task) => ({
    id: task.id,
    tool: task.tool,
    status: task.status,
    owner: owners.get(task.ownerKey) as string,
    updatedAt: new Date(task.lastUpdatedAt).toISOString(),
  }));
  return { counts: taskCounts(tasks), recent };
}
