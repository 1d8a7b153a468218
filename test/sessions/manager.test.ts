/**
 * SessionManager without races: initial binding, switching and parking,
 * least-recently-used eviction, resolve's choice and its errors, disconnect,
 * persistence across a restart with lazy room loads, vanished folders, room
 * holding and reaping, the write predicate and the active-change event.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MoorError } from '../../src/errors.js';
import type { ActiveChange } from '../../src/sessions/manager.js';
import { MemorySessionStore } from '../../src/store/memory-session-store.js';
import { DAY_MS } from '../../src/store/session-store.js';
import { boundThenLoading, cleanupDirs, harness, makeDirs, rejection } from './helpers.js';

afterEach(cleanupDirs);

describe('SessionManager bindings', () => {
  it('a new session starts with its initial workspace; a known one keeps its own', async () => {
    const d = makeDirs('a', 'b');
    const { manager, store } = harness();
    (await manager.attach('s1', { root: d.a })).release();
    expect((await manager.list('s1')).active).toMatchObject({
      root: d.a,
      generation: 1,
      decisionCount: null,
    });
    // Unsaved until its first call, which ensureStarted precedes.
    expect(await store.load('s1')).toBeUndefined();
    expect(manager.snapshots()).toEqual([]);
    await manager.ensureStarted('s1', { root: d.b });
    expect((await store.load('s1'))?.active?.root).toBe(d.a);
    const restarted = harness({ store });
    (await restarted.manager.attach('s1', { root: d.b })).release();
    expect((await restarted.manager.list('s1')).active?.root).toBe(d.a);
  });

  it('a session begun unsaved here takes the record another daemon stored meanwhile, never overwrites it', async () => {
    const d = makeDirs('a', 'b');
    const store = new MemorySessionStore();
    const here = harness({ store });
    const there = harness({ store });
    const attached = await here.manager.attach('s1', { root: d.a });
    // The other daemon sees the same session make its first call: it connects b and saves.
    await there.manager.connect('s1', { root: d.b });
    // The first call here: the stored record wins over the default this connection began with.
    await here.manager.ensureStarted('s1', { root: d.a });
    expect((await here.manager.list('s1')).active?.root).toBe(d.b);
    expect((await store.load('s1'))?.active?.root).toBe(d.b);
    attached.release();
  });

  it('with a shared store, a call serves the switch another daemon stored before its notice arrives', async () => {
    const d = makeDirs('a', 'b');
    const store = new MemorySessionStore();
    const here = harness({ store, sharedStore: true });
    const there = harness({ store, sharedStore: true });
    const changes: ActiveChange[] = [];
    here.manager.onActiveChanged((c) => changes.push(c));
    // Both daemons know the stored session with a active.
    await there.manager.connect('s1', { root: d.a });
    const attached = await here.manager.attach('s1', { root: d.a });
    await here.manager.ensureStarted('s1', { root: d.a });
    expect((await here.manager.list('s1')).active?.root).toBe(d.a);
    // The other daemon switches to b; no notice of it reaches this one.
    await there.manager.connect('s1', { root: d.b });
    await here.manager.ensureStarted('s1', { root: d.a });
    const list = await here.manager.list('s1');
    expect(list.active?.root).toBe(d.b);
    expect(list.parked.map((p) => p.root)).toEqual([d.a]);
    expect(changes.map((c) => c.active?.root ?? null)).toEqual([d.b]);
    // A listing (no call) also serves what the store holds; a disconnect there is seen here.
    await there.manager.disconnect('s1');
    await here.manager.ensureStarted('s1', { root: d.a }, false);
    expect((await here.manager.list('s1')).active).toBeNull();
    attached.release();
  });

  it("with a shared store that cannot be reached, a call serves this daemon's copy; other errors still fail it", async () => {
    const d = makeDirs('a');
    let failure: Error | undefined;
    class FlakyStore extends MemorySessionStore {
      override async load(key: string) {
        if (failure !== undefined) throw failure;
        return super.load(key);
      }
    }
    const { manager } = harness({ store: new FlakyStore(), sharedStore: true });
    await manager.connect('s1', { root: d.a });
    failure = new MoorError('STORE_UNAVAILABLE', 'cannot reach PostgreSQL: connect ECONNREFUSED');
    await manager.ensureStarted('s1', { root: d.a });
    expect((await manager.list('s1')).active?.root).toBe(d.a);
    failure = new Error('disk on fire');
    expect((await rejection(manager.ensureStarted('s1', { root: d.a }))).message).toBe('disk on fire');
  });

  it("without a shared store, a call serves this daemon's own record (no read per call)", async () => {
    const d = makeDirs('a', 'b');
    const store = new MemorySessionStore();
    const here = harness({ store });
    const there = harness({ store });
    await there.manager.connect('s1', { root: d.a });
    const attached = await here.manager.attach('s1', { root: d.a });
    await here.manager.ensureStarted('s1', { root: d.a });
    await there.manager.connect('s1', { root: d.b });
    await here.manager.ensureStarted('s1', { root: d.a });
    expect((await here.manager.list('s1')).active?.root).toBe(d.a);
    attached.release();
  });

  it('connect parks the previous active one, records the switch, announces the change', async () => {
    const d = makeDirs('a', 'b');
    const { manager, clock } = harness();
    const changes: ActiveChange[] = [];
    manager.onActiveChanged((c) => changes.push(c));
    const a = await manager.connect('s1', { root: d.a });
    expect(a).toEqual({ root: d.a, decisions: null, generation: 1, decisionCount: 3, problems: 0 });
    clock.now += 10;
    const b = await manager.connect('s1', { root: d.b, decisions: 'adr' });
    expect(b).toMatchObject({ root: d.b, decisions: path.join(d.b, 'adr'), generation: 2 });
    const list = await manager.list('s1');
    expect(list.parked.map((p) => p.root)).toEqual([d.a]);
    expect(list.lastDrop).toEqual({
      reason: 'switched',
      root: d.a,
      decisions: null,
      at: clock.now,
      rejoinTarget: d.a,
    });
    expect(changes.map((c) => [c.previous?.root ?? null, c.active?.root ?? null])).toEqual([
      [null, d.a],
      [d.a, d.b],
    ]);
    // Connecting to what is already active changes nothing and announces nothing.
    expect(await manager.connect('s1', { root: d.b, decisions: 'adr' })).toMatchObject({ generation: 2 });
    expect(changes).toHaveLength(2);
  });

  it('past the bound the least recently used parked binding is evicted, deterministically', async () => {
    const d = makeDirs('a', 'b', 'c', 'd');
    const { manager, loader } = harness({ maxParked: 2 });
    for (const root of [d.a, d.b, d.c]) await manager.connect('s1', { root });
    // Using a by name makes b the least recently used parked one.
    await manager.resolve('s1', d.a);
    expect((await manager.list('s1')).parked.map((p) => p.root)).toEqual([d.a, d.b]);
    await manager.connect('s1', { root: d.d });
    const list = await manager.list('s1');
    expect(list.parked.map((p) => p.root)).toEqual([d.c, d.a]);
    expect(list.lastDrop).toMatchObject({ reason: 'evicted', root: d.b, rejoinTarget: d.b });
    expect(loader.released).toEqual([d.b]);
    const error = await rejection(manager.resolve('s1', d.b));
    expect(error.code).toBe('WORKSPACE_NOT_CONNECTED');
    expect(error.message).toContain(`${d.b} was evicted: more than 2 parked`);
  });

  it('resolve: a named connected workspace beats the active; an unconnected one lists the connected', async () => {
    const d = makeDirs('a', 'b', 'other');
    const { manager } = harness();
    await manager.connect('s1', { root: d.a });
    await manager.connect('s1', { root: d.b });
    expect((await manager.resolve('s1')).binding.root).toBe(d.b);
    const named = await manager.resolve('s1', d.a);
    expect(named.binding.root).toBe(d.a);
    expect(named.room.key.root).toBe(d.a);
    const error = await rejection(manager.resolve('s1', d.other));
    expect(error).toMatchObject({ code: 'WORKSPACE_NOT_CONNECTED' });
    expect(error.message).toBe(
      `Workspace ${d.other}: it is not connected to this session. Call connect_workspace with path "${d.other}" first. Connected: ${d.b}, ${d.a}.`,
    );
  });

  it('no active workspace: the error says why and what to do', async () => {
    const d = makeDirs('a', 'b');
    const { manager } = harness();
    expect((await rejection(manager.resolve('fresh'))).message).toBe(
      'No workspace is active: this session has not connected one. Call connect_workspace with the absolute path of the workspace to work in.',
    );
    await manager.connect('s1', { root: d.a });
    await manager.connect('s1', { root: d.b });
    const out = await manager.disconnect('s1');
    expect(out).toMatchObject({ disconnected: { root: d.b }, active: null });
    const error = await rejection(manager.resolve('s1'));
    expect(error.code).toBe('NO_ACTIVE_WORKSPACE');
    expect(error.message).toBe(
      `No workspace is active: ${d.b} was disconnected. Call connect_workspace with the path of the workspace to work in. Parked: ${d.a}.`,
    );
  });

  it('disconnect with a root ends that parked binding and keeps the active one', async () => {
    const d = makeDirs('a', 'b');
    const { manager, loader } = harness();
    await manager.connect('s1', { root: d.a });
    await manager.connect('s1', { root: d.b });
    expect(await manager.disconnect('s1', d.a)).toMatchObject({
      disconnected: { root: d.a },
      active: { root: d.b },
    });
    expect(loader.released).toEqual([d.a]);
    expect((await manager.list('s1')).parked).toEqual([]);
    expect((await rejection(manager.disconnect('s1', d.a))).code).toBe('WORKSPACE_NOT_CONNECTED');
  });

  it('after a disconnect, a reconnecting session is not rejoined to its initial workspace', async () => {
    const d = makeDirs('a');
    const { manager, store } = harness();
    (await manager.attach('s1', { root: d.a })).release();
    await manager.disconnect('s1');
    const restarted = harness({ store });
    (await restarted.manager.attach('s1', { root: d.a })).release();
    expect((await restarted.manager.list('s1')).active).toBeNull();
  });

  it('refuses paths that are not absolute existing directories, saying why', async () => {
    const d = makeDirs('a');
    fs.writeFileSync(path.join(d.a, 'file'), '');
    const { manager } = harness();
    const cases: Array<[string, string]> = [
      ['relative/dir', 'path relative/dir is not an absolute path'],
      [path.join(d.a, 'missing'), `path ${path.join(d.a, 'missing')} does not exist.`],
      [path.join(d.a, 'file'), 'is not a directory.'],
    ];
    for (const [root, message] of cases) {
      const error = await rejection(manager.connect('s1', { root }));
      expect(error.code).toBe('WORKSPACE_INVALID');
      expect(error.message).toContain(message);
    }
  });

  it('a failed load leaves the installed binding alone', async () => {
    const d = makeDirs('a', 'b');
    const h = harness({ auto: false });
    const { manager, loader } = h;
    const { second: b } = await boundThenLoading(h, 's1', d.a, d.b);
    loader.fail(d.b, new Error('corpus broken'));
    await expect(b).rejects.toThrow('corpus broken');
    expect((await manager.list('s1')).active?.root).toBe(d.a);
  });

  it('a failed store write installs nothing and releases the loaded room', async () => {
    const d = makeDirs('a');
    const store = new MemorySessionStore();
    store.save = async () => {
      throw new Error('disk full');
    };
    const { manager, loader } = harness({ store });
    await expect(manager.connect('s1', { root: d.a })).rejects.toThrow('disk full');
    expect(loader.released).toEqual([d.a]);
    expect((await manager.list('s1')).active).toBeNull();
  });
});

describe('SessionManager across a restart', () => {
  it('finds active and parked bindings and loads their rooms on first use', async () => {
    const d = makeDirs('a', 'b');
    const first = harness();
    await first.manager.connect('s1', { root: d.a });
    await first.manager.connect('s1', { root: d.b });
    const second = harness({ store: first.store });
    (await second.manager.attach('s1')).release();
    const list = await second.manager.list('s1');
    expect(list.active).toMatchObject({ root: d.b, decisionCount: 3 });
    expect(list.parked.map((p) => p.root)).toEqual([d.a]);
    expect(second.loader.loads).toEqual([]);
    await second.manager.resolve('s1');
    await second.manager.resolve('s1');
    expect(second.loader.loads).toEqual([d.b]);
  });

  it('a binding whose folder vanished is dropped as unavailable on first use', async () => {
    const d = makeDirs('a', 'b');
    const first = harness();
    await first.manager.connect('s1', { root: d.a });
    await first.manager.connect('s1', { root: d.b });
    fs.rmSync(d.b, { recursive: true });
    const second = harness({ store: first.store });
    const changes: ActiveChange[] = [];
    second.manager.onActiveChanged((c) => changes.push(c));
    const error = await rejection(second.manager.resolve('s1'));
    expect(error).toMatchObject({ code: 'WORKSPACE_UNAVAILABLE' });
    expect(error.message).toContain(`${d.b} is no longer available: its folder is gone.`);
    expect(second.loader.loads).toEqual([]);
    expect(changes).toEqual([
      expect.objectContaining({ active: null, previous: expect.objectContaining({ root: d.b }) }),
    ]);
    const again = await rejection(second.manager.resolve('s1'));
    expect(again.code).toBe('NO_ACTIVE_WORKSPACE');
    expect(again.message).toContain('is no longer available: its folder is gone');
    expect((await first.store.load('s1'))?.lastDrop?.reason).toBe('unavailable');
    expect((await second.manager.resolve('s1', d.a)).binding.root).toBe(d.a);
  });
});

describe('SessionManager rooms and reaping', () => {
  it('an attached session holds its active and parked rooms; the last detach releases them', async () => {
    const d = makeDirs('a', 'b');
    const { manager, loader } = harness();
    const one = await manager.attach('s1');
    const two = await manager.attach('s1');
    await manager.connect('s1', { root: d.a });
    await manager.connect('s1', { root: d.b });
    one.release();
    one.release();
    expect(loader.released).toEqual([]);
    two.release();
    expect(loader.released.sort()).toEqual([d.a, d.b].sort());
    await manager.resolve('s1', d.a);
    expect(loader.loads).toEqual([d.a, d.b, d.a]);
  });

  it('reap lets idle unattached sessions go and sweeps stored ones past the retention', async () => {
    const d = makeDirs('a');
    const { manager, loader, store, clock } = harness();
    await manager.connect('idle', { root: d.a });
    const idle = await store.load('idle');
    if (idle === undefined) throw new Error('expected the idle session stored');
    await store.save({ ...idle, key: 'old', lastUsedAt: clock.now - 8 * DAY_MS });
    expect(await manager.reap(clock.now + 60_000)).toEqual({ released: 0, forgotten: 0, swept: 1 });
    expect(await manager.reap(clock.now + 5 * 60_000)).toEqual({ released: 1, forgotten: 0, swept: 0 });
    expect(loader.released).toEqual([d.a]);
    expect(await manager.reap(clock.now + DAY_MS)).toEqual({ released: 0, forgotten: 1, swept: 0 });
    expect(manager.loadedSessions).toBe(0);
    expect((await manager.list('idle')).active?.root).toBe(d.a);
  });

  it('writeAllowed follows the active workspace through the injected predicate', async () => {
    const d = makeDirs('a', 'b');
    const { manager } = harness({ writeAllowed: (root) => root === d.b });
    expect(manager.writeAllowed('s1')).toBe(false);
    await manager.connect('s1', { root: d.a });
    expect(manager.writeAllowed('s1')).toBe(false);
    await manager.connect('s1', { root: d.b });
    expect(manager.writeAllowed('s1')).toBe(true);
    expect(manager.activeBinding('s1')?.root).toBe(d.b);
  });
});
