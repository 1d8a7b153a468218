/**
 * Every SessionStore against one contract: whole-record saves, parked order,
 * touch, sweep, list. The PostgreSQL store runs on a real server, each store
 * in its own schema.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { emptySessionRecord } from '../../../src/store/session-store.js';
import { binding, sessionRecord as record } from '../records.js';
import { cleanUp, cleanUpAll, SESSION_STORES } from './stores.js';

afterEach(cleanUp);
afterAll(cleanUpAll);

describe.each(SESSION_STORES)('%s session store', (_name, make) => {
  it('returns undefined for an unknown key', async () => {
    expect(await (await make()).load('nobody')).toBeUndefined();
  });

  it('loads exactly what was saved, parked order kept', async () => {
    const store = await make();
    await store.save(record('s1'));
    expect(await store.load('s1')).toEqual(record('s1'));
  });

  it('a save replaces the whole record: bindings that left are gone', async () => {
    const store = await make();
    await store.save(record('s1'));
    await store.save({
      ...record('s1'),
      active: null,
      parked: [binding('/c', 1)],
      lastDrop: null,
      generation: 4,
    });
    const loaded = await store.load('s1');
    expect(loaded?.active).toBeNull();
    expect(loaded?.parked.map((b) => b.root)).toEqual(['/c']);
    expect(loaded?.lastDrop).toBeNull();
    expect(loaded?.generation).toBe(4);
    expect(loaded?.createdAt).toBe(50);
  });

  it("keeps the client a session's handshake named, and a later save's change of it", async () => {
    const store = await make();
    await store.save({ ...record('s1'), client: { name: 'claude-code', version: '2.1.0' } });
    expect((await store.load('s1'))?.client).toEqual({ name: 'claude-code', version: '2.1.0' });
    await store.save({ ...record('s1'), client: { name: 'claude-code', version: '2.2.0' } });
    expect((await store.load('s1'))?.client).toEqual({ name: 'claude-code', version: '2.2.0' });
    await store.save(record('s2'));
    expect((await store.load('s2'))?.client).toBeNull();
  });

  it('touch moves lastUsedAt; unknown keys are ignored', async () => {
    const store = await make();
    await store.save(record('s1'));
    await store.touch('s1', 5000);
    await store.touch('nobody', 5000);
    expect((await store.load('s1'))?.lastUsedAt).toBe(5000);
    expect(await store.load('nobody')).toBeUndefined();
  });

  it('sweeps sessions unused since the cut-off, bindings included', async () => {
    const store = await make();
    await store.save(record('old', 100));
    await store.save(record('edge', 200));
    await store.save(record('new', 300));
    expect(await store.sweep(200)).toBe(1);
    expect(await store.load('old')).toBeUndefined();
    expect((await store.load('edge'))?.active?.root).toBe('/a');
    expect((await store.list()).map((s) => s.key)).toEqual(['new', 'edge']);
  });

  it('lists sessions most recently used first with their active root and parked count', async () => {
    const store = await make();
    await store.save(record('s1', 100));
    await store.save({ ...emptySessionRecord('s2', 10), lastUsedAt: 200 });
    expect(await store.list()).toEqual([
      { key: 's2', active: null, parked: 0, lastUsedAt: 200 },
      { key: 's1', active: '/a', parked: 2, lastUsedAt: 100 },
    ]);
  });
});
