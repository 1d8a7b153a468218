/**
 * The session manager's races, each ordered by hand: loads (and in one test
 * a store write) wait until the test lets them finish. No sleeps, no timers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../src/store/memory-session-store.js';
import type { SessionRecord } from '../../src/store/session-store.js';
import { boundThenLoading, cleanupDirs, harness, makeDirs, rejection } from './helpers.js';

afterEach(cleanupDirs);

describe('SessionManager races', () => {
  it('concurrent connects to the same target share one load', async () => {
    const d = makeDirs('a');
    const { manager, loader } = harness({ auto: false });
    const first = manager.connect('s1', { root: d.a });
    const second = manager.connect('s1', { root: d.a });
    await loader.started(d.a);
    loader.finish(d.a);
    expect(await first).toEqual(await second);
    expect(loader.loads).toEqual([d.a]);
    expect(loader.released).toEqual([]);
  });

  it.each([
    ['the superseded load finishes first', ['a', 'b']],
    ['the superseded load finishes last', ['b', 'a']],
  ])('a connect to another target supersedes one in flight (%s)', async (_label, order) => {
    const d = makeDirs('a', 'b');
    const { manager, loader } = harness({ auto: false });
    const a = manager.connect('s1', { root: d.a });
    const b = manager.connect('s1', { root: d.b });
    await loader.started(d.a);
    await loader.started(d.b);
    const rooms = Object.fromEntries(order.map((name) => [name, loader.finish(d[name] as string)]));
    const error = await rejection(a);
    expect(error.code).toBe('CONNECT_SUPERSEDED');
    expect(await b).toMatchObject({ root: d.b, generation: 1 });
    expect(rooms.a?.released).toBe(true);
    expect(rooms.b?.released).toBe(false);
    const list = await manager.list('s1');
    expect(list.active?.root).toBe(d.b);
    expect(list.parked).toEqual([]);
  });

  it('A→B→A never installs the stale first A', async () => {
    const d = makeDirs('a', 'b');
    const { manager, loader } = harness({ auto: false });
    const a1 = manager.connect('s1', { root: d.a });
    await loader.started(d.a);
    const b = manager.connect('s1', { root: d.b });
    const a2 = manager.connect('s1', { root: d.a });
    await loader.started(d.b);
    // The second A did not join the first A's load: it started its own.
    expect(loader.loads).toEqual([d.a, d.b, d.a]);
    const staleA = loader.finish(d.a, 111);
    expect((await rejection(a1)).code).toBe('CONNECT_SUPERSEDED');
    expect(staleA.released).toBe(true);
    expect((await manager.list('s1')).active).toBeNull();
    const freshA = loader.finish(d.a, 222);
    expect(await a2).toMatchObject({ root: d.a, decisionCount: 222 });
    loader.finish(d.b);
    expect((await rejection(b)).code).toBe('CONNECT_SUPERSEDED');
    expect(freshA.released).toBe(false);
    expect((await manager.list('s1')).active).toMatchObject({ root: d.a, decisionCount: 222 });
  });

  it('a disconnect advances the intent: a load finishing later cannot resurrect the binding', async () => {
    const d = makeDirs('a', 'b');
    const h = harness({ auto: false });
    const { manager, loader } = h;
    const { second: b } = await boundThenLoading(h, 's1', d.a, d.b);
    await manager.disconnect('s1');
    // A connect after the disconnect does not join the superseded load still in flight.
    const again = manager.connect('s1', { root: d.b });
    const roomB = loader.finish(d.b);
    expect((await rejection(b)).code).toBe('CONNECT_SUPERSEDED');
    expect(roomB.released).toBe(true);
    expect((await manager.list('s1')).active).toBeNull();
    await loader.started(d.b);
    loader.finish(d.b);
    expect(await again).toMatchObject({ root: d.b });
    expect(loader.loads).toEqual([d.a, d.b, d.b]);
  });

  it('installation is serialised under the session lock: a disconnect waits for the install it follows', async () => {
    const d = makeDirs('a');
    const store = new MemorySessionStore();
    const save = store.save.bind(store);
    const gates: Array<() => void> = [];
    const saved: Array<SessionRecord['active']> = [];
    store.save = async (record) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      saved.push(record.active);
      await save(record);
    };
    const { manager } = harness({ store });
    const a = manager.connect('s1', { root: d.a });
    while (gates.length === 0) await Promise.resolve();
    // The install is writing; the disconnect issued now runs after it, not in the middle of it.
    const disconnected = manager.disconnect('s1');
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(gates).toHaveLength(1);
    gates.shift()?.();
    expect(await a).toMatchObject({ root: d.a });
    while (gates.length === 0) await Promise.resolve();
    gates.shift()?.();
    expect(await disconnected).toMatchObject({ disconnected: { root: d.a }, active: null });
    expect(saved.map((active) => active?.root ?? null)).toEqual([d.a, null]);
  });

  it('a first-use load that finishes after its binding ended is released, not held', async () => {
    const d = makeDirs('a');
    const first = harness();
    await first.manager.connect('s1', { root: d.a });
    const { manager, loader } = harness({ store: first.store, auto: false });
    const resolving = manager.resolve('s1');
    const again = manager.resolve('s1');
    await loader.started(d.a);
    const disconnected = manager.disconnect('s1');
    await disconnected;
    const room = loader.finish(d.a);
    expect((await rejection(resolving)).code).toBe('NO_ACTIVE_WORKSPACE');
    expect((await rejection(again)).code).toBe('NO_ACTIVE_WORKSPACE');
    expect(loader.loads).toEqual([d.a]);
    expect(room.released).toBe(true);
  });

  it('concurrent first uses share one load and get the same room', async () => {
    const d = makeDirs('a');
    const first = harness();
    await first.manager.connect('s1', { root: d.a });
    const { manager, loader } = harness({ store: first.store, auto: false });
    const one = manager.resolve('s1');
    const two = manager.resolve('s1');
    await loader.started(d.a);
    const room = loader.finish(d.a);
    expect((await one).room).toBe(room);
    expect((await two).room).toBe(room);
    expect(loader.loads).toEqual([d.a]);
  });
});
