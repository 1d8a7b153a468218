/**
 * Ten concurrent connects of one session, through the daemon's composition
 * (DaemonSessions over real Rooms and the decisions pack): to one target
 * they share one load and one lease; to alternating targets the last one
 * issued ends active, every overtaken one is superseded or installed before
 * it, and no room is held that the session's bindings do not account for.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonSessions, type RoomContents } from '../../../src/app/daemon/daemon-sessions.js';
import { Workspace } from '../../../src/host/call-scope.js';
import { erasePack } from '../../../src/host/pack.js';
import { createDecisionsPack } from '../../../src/packs/decisions/pack.js';
import { type RoomKey, Rooms, roomId } from '../../../src/sessions/rooms.js';
import { createWorkspacePolicy } from '../../../src/sessions/workspace-path.js';
import { MemorySessionStore } from '../../../src/store/memory-session-store.js';
import { E2E_WORKSPACE } from '../../helpers/paths.js';
import { cleanupDirs, makeDirs } from '../../sessions/helpers.js';

afterEach(cleanupDirs);

/** Rooms that count how often each workspace was opened and how many leases were taken. */
function countingRooms() {
  const opened: string[] = [];
  const acquired: string[] = [];
  const rooms = new Rooms<RoomContents>({
    open: (key) => {
      opened.push(key.root);
      const workspace = new Workspace(key.root);
      return { workspace, packs: new Map(), close: () => workspace.close() };
    },
  });
  const acquire = rooms.acquire.bind(rooms);
  rooms.acquire = (key: RoomKey) => {
    acquired.push(key.root);
    return acquire(key);
  };
  return { rooms, opened, acquired };
}

function compose() {
  const counting = countingRooms();
  const sessions = new DaemonSessions({
    rooms: counting.rooms,
    store: new MemorySessionStore(),
    decisionsPack: erasePack(createDecisionsPack({ watch: false })),
    policy: createWorkspacePolicy(),
    writeRoots: [],
    httpHoldMs: 60_000,
    onError: (error) => {
      throw error;
    },
  });
  return { sessions, ...counting };
}

function workspaces(...names: string[]): Record<string, string> {
  const dirs = makeDirs(...names);
  for (const dir of Object.values(dirs)) fs.cpSync(E2E_WORKSPACE, dir, { recursive: true });
  return dirs;
}

/** Every loaded room is held exactly as often as the session holds it: no stray lease. */
function expectLeasesAccountedFor(sessions: DaemonSessions, rooms: Rooms<RoomContents>, key: string): void {
  const held = new Set(sessions.manager.heldRooms(key).map(roomId));
  for (const room of rooms.loaded())
    expect([room.key.root, room.connections]).toEqual([room.key.root, held.has(roomId(room.key)) ? 1 : 0]);
}

describe('ten concurrent connects of one session', () => {
  it('to the same target share one load and end with one binding', async () => {
    const d = workspaces('a', 'b');
    const { sessions, rooms, opened, acquired } = compose();
    const attached = await sessions.manager.attach('s1', { root: d.a });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => sessions.manager.connect('s1', { root: d.b })),
    );
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(results[0]).toEqual({ root: d.b, decisions: null, generation: 2, decisionCount: 5, problems: 0 });
    expect(opened.filter((root) => root === d.b)).toEqual([d.b]);
    expect(acquired.filter((root) => root === d.b)).toEqual([d.b]);
    const list = await sessions.manager.list('s1');
    expect(list.active?.root).toBe(d.b);
    expect(list.parked.map((p) => p.root)).toEqual([d.a]);
    expectLeasesAccountedFor(sessions, rooms, 's1');
    attached.release();
    sessions.close();
  });

  it('to alternating targets end with the last one issued active and no stale install', async () => {
    const d = workspaces('a', 'b', 'c');
    const { sessions, rooms } = compose();
    const attached = await sessions.manager.attach('s1', { root: d.a });
    const targets = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? d.b : d.c));
    const outcomes = await Promise.allSettled(
      targets.map((root) => sessions.manager.connect('s1', { root })),
    );
    // The last connect issued wins; each earlier one was superseded (nothing installed after the last).
    const last = outcomes.at(-1);
    expect(last).toMatchObject({ status: 'fulfilled', value: { root: d.c } });
    for (const outcome of outcomes.slice(0, -1)) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: 'CONNECT_SUPERSEDED' });
    }
    const winner = last?.status === 'fulfilled' ? last.value : undefined;
    const installed = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.generation] : []));
    expect(Math.max(...installed)).toBe(winner?.generation);
    const list = await sessions.manager.list('s1');
    expect(list.active).toEqual(winner);
    expect(list.active?.root).toBe(d.c);
    // What was active before, and any target installed on the way, is parked; nothing else.
    expect(list.parked.every((p) => [d.a, d.b].includes(p.root))).toBe(true);
    expectLeasesAccountedFor(sessions, rooms, 's1');
    attached.release();
    sessions.close();
  });
});
