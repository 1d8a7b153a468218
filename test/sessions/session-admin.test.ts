/**
 * The operator side of SessionManager: snapshots of the sessions in memory
 * and of those only the store knows, and drop (memory and store, rooms
 * released, a loading connect superseded, an attached connection starting
 * the session again).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActiveChange } from '../../src/sessions/manager.js';
import { SqliteSessionStore } from '../../src/store/sqlite-session-store.js';
import { cleanupDirs, harness, makeDirs, rejection } from './helpers.js';

afterEach(cleanupDirs);

describe('SessionManager snapshots', () => {
  it('shows each binding, which rooms the session holds and how many are attached', async () => {
    const d = makeDirs('a', 'b');
    const { manager, clock } = harness();
    const attached = await manager.attach('s1', { root: d.a });
    clock.now += 5;
    await manager.connect('s1', { root: d.b });
    expect(manager.snapshots()).toEqual([
      {
        key: 's1',
        active: { root: d.b, decisions: null, generation: 2, decisionCount: 3, problems: 0, loaded: true },
        parked: [
          { root: d.a, decisions: null, generation: 1, decisionCount: null, problems: null, loaded: false },
        ],
        lastDrop: expect.objectContaining({ reason: 'switched', root: d.a }),
        attachments: 1,
        lastUsedAt: clock.now,
        inMemory: true,
        client: null,
      },
    ]);
    attached.release();
  });

  it('lists the sessions only the store knows after those in memory, most recently used first', async () => {
    const d = makeDirs('a', 'b');
    const first = harness();
    await first.manager.connect('stored-old', { root: d.a });
    first.clock.now += 10;
    await first.manager.connect('stored-new', { root: d.b });
    const restarted = harness({ store: first.store });
    restarted.clock.now = first.clock.now + 100;
    await restarted.manager.connect('live', { root: d.a });
    const all = await restarted.manager.allSnapshots();
    expect(all.map((s) => [s.key, s.inMemory, s.active?.root])).toEqual([
      ['live', true, d.a],
      ['stored-new', false, d.b],
      ['stored-old', false, d.a],
    ]);
    expect(all[1]?.active?.loaded).toBe(false);
  });
});

describe('SessionManager drop', () => {
  it('forgets an unattached session in memory and in the store, releasing its rooms', async () => {
    const d = makeDirs('a', 'b');
    const { manager, store, loader } = harness();
    await manager.connect('s1', { root: d.a });
    await manager.connect('s1', { root: d.b });
    await manager.connect('s2', { root: d.a });
    const changes: ActiveChange[] = [];
    manager.onActiveChanged((c) => changes.push(c));
    expect(await manager.drop('s1')).toBe(true);
    expect(loader.released.sort()).toEqual([d.a, d.b].sort());
    expect(await store.load('s1')).toBeUndefined();
    expect(manager.snapshots().map((s) => s.key)).toEqual(['s2']);
    expect((await store.list()).map((s) => s.key)).toEqual(['s2']);
    expect(changes).toEqual([
      { sessionKey: 's1', active: null, previous: expect.objectContaining({ root: d.b }) },
    ]);
    // Unknown afterwards, and a drop of an unknown key says so.
    expect(await manager.drop('s1')).toBe(false);
    expect((await manager.list('s1')).active).toBeNull();
  });

  it('drops a session only the store knows (SQLite)', async () => {
    const d = makeDirs('a');
    const store = new SqliteSessionStore({ file: ':memory:' });
    const first = harness({ store });
    await first.manager.connect('s1', { root: d.a });
    await first.manager.connect('s2', { root: d.a });
    const restarted = harness({ store });
    expect(await restarted.manager.drop('s1')).toBe(true);
    expect(await store.load('s1')).toBeUndefined();
    expect((await store.list()).map((s) => s.key)).toEqual(['s2']);
    store.close();
  });

  it('an attached session starts again with its connection’s initial workspace on its next call', async () => {
    const d = makeDirs('a', 'b');
    const { manager, store } = harness();
    const attached = await manager.attach('s1', { root: d.a });
    await manager.connect('s1', { root: d.b });
    await manager.drop('s1');
    expect(await store.load('s1')).toBeUndefined();
    // Until its next call it is no session an operator sees.
    expect(manager.snapshots()).toEqual([]);
    await manager.ensureStarted('s1', { root: d.a });
    expect(manager.snapshots()).toMatchObject([{ key: 's1', attachments: 1, lastDrop: null }]);
    expect(await manager.list('s1')).toEqual({
      active: expect.objectContaining({ root: d.a }),
      parked: [],
      lastDrop: null,
    });
    expect((await store.load('s1'))?.active?.root).toBe(d.a);
    // A stored session with nothing active is left so: ensureStarted undoes no disconnect.
    await manager.disconnect('s1');
    await manager.ensureStarted('s1', { root: d.b });
    expect((await manager.list('s1')).active).toBeNull();
    attached.release();
  });

  it('a connect loading when the session is dropped is superseded and its room released', async () => {
    const d = makeDirs('a');
    const { manager, loader } = harness({ auto: false });
    const connecting = rejection(manager.connect('s1', { root: d.a }));
    await loader.started(d.a);
    const dropping = manager.drop('s1');
    loader.finish(d.a);
    // Opened by the connect, the session was in memory: the drop found it.
    expect(await dropping).toBe(true);
    expect((await connecting).code).toBe('CONNECT_SUPERSEDED');
    expect(loader.released).toEqual([d.a]);
    expect(manager.snapshots()).toEqual([]);
  });
});
