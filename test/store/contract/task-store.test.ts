/**
 * Every TaskStore against one contract: fenced status writes, retention and
 * ttl, grouped terminal writes, leases (renewal, cancellation requests,
 * interruption of expired ones), changes since a time, the sweeper. The
 * PostgreSQL store runs on a real server, each store in its own schema.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type TaskStore, ttlMsOf } from '../../../src/store/task-store.js';
import { newTaskBase } from '../records.js';
import { cleanUp, cleanUpAll, TASK_STORES } from './stores.js';

function defined<T>(value: T | undefined | null): T {
  if (value === undefined || value === null) throw new Error('expected a stored task');
  return value;
}

afterEach(cleanUp);
afterAll(cleanUpAll);

const base = newTaskBase(1_000_000);

describe.each(TASK_STORES)('%s task store', (_name, make) => {
  let store: TaskStore;
  const open = async () => {
    store = await make();
    return store;
  };

  it('creates a working task that get and list find', async () => {
    await open();
    const task = await store.create({ ...base, id: 't1', createdAt: 100 });
    expect(task.status).toBe('working');
    expect(await store.get('t1', 100)).toMatchObject({
      id: 't1',
      status: 'working',
      ownerKey: 'owner-key-1',
      leaseOwner: 'inc-a',
      leaseExpiresAt: 1_000_000,
      cancelRequestedAt: null,
    });
    expect(await store.get('t1', 100)).toEqual(task);
    expect((await store.list('owner-key-1', 100)).map((t) => t.id)).toEqual(['t1']);
    expect(await store.list('someone-else', 100)).toEqual([]);
    expect(ttlMsOf(defined(await store.get('t1', 100)))).toBeNull();
    await store.close();
  });

  it('refuses a second task with the same id as TASK_EXISTS', async () => {
    await open();
    await store.create({ ...base, id: 't1', createdAt: 100 });
    await expect(store.create({ ...base, id: 't1', createdAt: 101 })).rejects.toMatchObject({
      code: 'TASK_EXISTS',
    });
  });

  it('lists newest first', async () => {
    await open();
    await store.create({ ...base, id: 'a', createdAt: 1 });
    await store.create({ ...base, id: 'b', createdAt: 3 });
    await store.create({ ...base, id: 'c', createdAt: 2, ownerKey: 'other' });
    expect((await store.list(undefined, 5)).map((t) => t.id)).toEqual(['b', 'c', 'a']);
    expect((await store.list('owner-key-1', 5)).map((t) => t.id)).toEqual(['b', 'a']);
  });

  it('fences terminal statuses: the first finish wins, later writes change nothing', async () => {
    await open();
    await store.create({ ...base, id: 't1', createdAt: 100 });
    expect(await store.setInputRequired('t1', { a: { method: 'elicitation/create' } }, 110)).toBe(true);
    expect(await store.get('t1', 110)).toMatchObject({
      status: 'input_required',
      inputRequests: { a: { method: 'elicitation/create' } },
    });
    expect(await store.setWorking('t1', 'halfway', 120)).toBe(true);
    expect(await store.get('t1', 120)).toMatchObject({
      status: 'working',
      statusMessage: 'halfway',
      inputRequests: null,
      lastUpdatedAt: 120,
    });
    expect(await store.setWorking('t1', undefined, 121)).toBe(true);
    expect((await store.get('t1', 121))?.statusMessage).toBe('halfway');
    expect(await store.finish('t1', 'cancelled', { statusMessage: 'Cancelled.' }, 130)).toBe(true);
    expect(await store.finish('t1', 'completed', { result: { content: [] } }, 140)).toBe(false);
    expect(await store.setWorking('t1', 'late', 150)).toBe(false);
    expect(await store.setInputRequired('t1', {}, 150)).toBe(false);
    expect(await store.requestCancel('t1', 150)).toBe(false);
    const done = defined(await store.get('t1', 150));
    expect(done).toMatchObject({
      status: 'cancelled',
      statusMessage: 'Cancelled.',
      result: null,
      terminalAt: 130,
    });
    expect(ttlMsOf(done)).toBe(130 + 1000 - 100);
    expect(await store.setWorking('missing', 'x', 1)).toBe(false);
  });

  it('knows no task whose id holds a NUL (PostgreSQL text cannot), as for any unknown id', async () => {
    await open();
    await store.create({ ...base, id: 't1', createdAt: 100 });
    const nul = 't1\u0000x';
    expect(await store.get(nul, 100)).toBeUndefined();
    expect(await store.list('owner\u0000', 100)).toEqual([]);
    expect(await store.setWorking(nul, 'x', 100)).toBe(false);
    expect(await store.setInputRequired(nul, {}, 100)).toBe(false);
    expect(await store.requestCancel(nul, 100)).toBe(false);
    expect(await store.finish(nul, 'completed', {}, 100)).toBe(false);
    expect(await store.finishMany([{ id: nul, status: 'completed', payload: {} }], 100)).toEqual([false]);
    expect((await store.get('t1', 100))?.status).toBe('working');
  });

  it('keeps results and errors as JSON, byte for byte', async () => {
    await open();
    await store.create({ ...base, id: 'ok', createdAt: 1 });
    await store.create({ ...base, id: 'bad', createdAt: 2 });
    const result = { content: [{ type: 'text', text: 'é' }], isError: true, z: 1, a: 2 };
    await store.finish('ok', 'completed', { result }, 3);
    await store.finish('bad', 'failed', { error: { code: -32603, message: 'no', data: { x: 1 } } }, 4);
    const ok = await store.get('ok', 5);
    expect(ok?.result).toEqual(result);
    expect(JSON.stringify(ok?.result)).toBe(JSON.stringify(result));
    expect((await store.get('bad', 5))?.error).toEqual({ code: -32603, message: 'no', data: { x: 1 } });
  });

  it('commits a group of terminal writes together, each one fenced', async () => {
    await open();
    for (const id of ['a', 'b', 'c']) await store.create({ ...base, id, createdAt: 1 });
    await store.finish('b', 'failed', { error: { code: 1, message: 'first' } }, 2);
    const applied = await store.finishMany(
      [
        { id: 'a', status: 'completed', payload: { result: { content: [] }, statusMessage: 'Completed.' } },
        { id: 'b', status: 'completed', payload: { result: { content: [] } } },
        { id: 'c', status: 'cancelled', payload: {} },
        { id: 'missing', status: 'completed', payload: {} },
      ],
      10,
    );
    expect(applied).toEqual([true, false, true, false]);
    expect(await store.get('a', 10)).toMatchObject({
      status: 'completed',
      statusMessage: 'Completed.',
      terminalAt: 10,
    });
    expect(await store.get('b', 10)).toMatchObject({ status: 'failed', error: { message: 'first' } });
    expect(await store.get('c', 10)).toMatchObject({ status: 'cancelled', statusMessage: null });
    expect(await store.finishMany([], 11)).toEqual([]);
  });

  it('hides a finished task once its retention ends, and the sweeper deletes it', async () => {
    await open();
    await store.create({ ...base, id: 't1', createdAt: 0 });
    await store.create({ ...base, id: 'running', createdAt: 0 });
    await store.finish('t1', 'completed', { result: {} }, 500);
    expect((await store.get('t1', 1499))?.id).toBe('t1');
    expect(await store.get('t1', 1500)).toBeUndefined();
    expect(await store.list(undefined, 1500)).toHaveLength(1);
    expect(await store.sweep(1499)).toBe(0);
    expect(await store.sweep(1500)).toBe(1);
    expect((await store.get('running', 10_000))?.status).toBe('working');
  });

  it('renews only the leases its owner holds on running tasks, and reports requested cancellations', async () => {
    await open();
    await store.create({ ...base, id: 'mine', createdAt: 1, leaseExpiresAt: 100 });
    await store.create({ ...base, id: 'cancel-me', createdAt: 1, leaseExpiresAt: 100 });
    await store.create({ ...base, id: 'theirs', createdAt: 1, leaseOwner: 'inc-b', leaseExpiresAt: 100 });
    await store.create({ ...base, id: 'done', createdAt: 1, leaseExpiresAt: 100 });
    await store.finish('done', 'completed', { result: {} }, 2);
    expect(await store.requestCancel('cancel-me', 50)).toBe(true);
    expect(await store.requestCancel('cancel-me', 60)).toBe(true);
    const cancelled = await store.renewLeases('inc-a', ['mine', 'cancel-me', 'theirs', 'done'], 500);
    expect(cancelled).toEqual(['cancel-me']);
    expect((await store.get('mine', 3))?.leaseExpiresAt).toBe(500);
    expect(await store.get('cancel-me', 3)).toMatchObject({
      leaseExpiresAt: 500,
      cancelRequestedAt: 50,
      status: 'working',
    });
    expect((await store.get('theirs', 3))?.leaseExpiresAt).toBe(100);
    expect((await store.get('done', 3))?.leaseExpiresAt).toBe(100);
    expect(await store.renewLeases('inc-a', [], 600)).toEqual([]);
  });

  it('fails the running tasks of other owners whose lease expired, never its own, a live one or finished ones', async () => {
    await open();
    await store.create({ ...base, id: 'old-working', createdAt: 1, leaseOwner: 'old', leaseExpiresAt: 10 });
    await store.create({ ...base, id: 'old-input', createdAt: 1, leaseOwner: 'old', leaseExpiresAt: 5 });
    await store.setInputRequired('old-input', { k: {} }, 2);
    await store.create({ ...base, id: 'old-done', createdAt: 1, leaseOwner: 'old', leaseExpiresAt: 5 });
    await store.finish('old-done', 'completed', { result: { content: [] } }, 2);
    await store.create({ ...base, id: 'live', createdAt: 1, leaseOwner: 'peer', leaseExpiresAt: 11 });
    await store.create({ ...base, id: 'mine', createdAt: 1, leaseOwner: 'new', leaseExpiresAt: 1 });
    const error = { code: -32603, message: 'Task interrupted: the daemon running it stopped' };
    expect((await store.interruptExpired('new', 10, error, 10)).sort()).toEqual(['old-input', 'old-working']);
    expect(await store.get('old-working', 10)).toMatchObject({
      status: 'failed',
      error,
      statusMessage: error.message,
      terminalAt: 10,
    });
    expect(await store.get('old-input', 10)).toMatchObject({ status: 'failed', inputRequests: null });
    expect((await store.get('old-done', 10))?.status).toBe('completed');
    expect((await store.get('live', 10))?.status).toBe('working');
    expect((await store.get('mine', 10))?.status).toBe('working');
    expect(await store.interruptExpired('new', 10, error, 11)).toEqual([]);
    expect(await store.interruptExpired('new', Number.MAX_SAFE_INTEGER, error, 12)).toEqual(['live']);
  });

  it('reads the tasks changed after a time, oldest change first', async () => {
    await open();
    await store.create({ ...base, id: 'a', createdAt: 1 });
    await store.create({ ...base, id: 'b', createdAt: 2 });
    await store.create({ ...base, id: 'c', createdAt: 3 });
    await store.setWorking('a', 'moved', 7);
    await store.finish('b', 'completed', { result: {} }, 6);
    expect((await store.changedSince(2, 8)).map((t) => [t.id, t.lastUpdatedAt])).toEqual([
      ['c', 3],
      ['b', 6],
      ['a', 7],
    ]);
    expect(await store.changedSince(7, 8)).toEqual([]);
  });
});
