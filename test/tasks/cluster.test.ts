/**
 * Task services of several daemons sharing one PostgreSQL store (real
 * server, a schema per test): tasks/cancel and tasks/update sent to daemon B
 * reach the work running on A through the bus; a cancellation whose message
 * is lost still reaches A through its row when A renews its leases; a peer
 * fails a task whose lease expired, and a daemon starting up never fails a
 * live peer's tasks; B hears A's status changes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ClusterBus } from '../../src/events/bus.js';
import { localBus } from '../../src/events/bus.js';
import { PgBus } from '../../src/events/pg-bus.js';
import { openStores, type Stores } from '../../src/store/open.js';
import type { TaskStatus } from '../../src/store/task-store.js';
import { LEASE_EXPIRED_MESSAGE, TaskService, type TaskWorkEnvironment } from '../../src/tasks/service.js';
import { dropSchemas, freshSchema, pgUrl } from '../helpers/pg.js';

const url = pgUrl();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(dropSchemas);

const ok = (text: string) => ({ content: [{ type: 'text', text }] });

interface Daemon {
  readonly service: TaskService;
  readonly stores: Stores;
  readonly remote: string[];
}

describe.skipIf(url === null)('tasks across daemons on PostgreSQL', () => {
  let clock = Date.now();
  const now = () => clock;

  async function daemons(
    n: number,
    options: { bus?: 'pg' | 'none'; leaseMs?: number; ownClock?: boolean } = {},
  ): Promise<Daemon[]> {
    const schema = freshSchema();
    const out: Daemon[] = [];
    for (let i = 0; i < n; i++) {
      const id = `daemon-${i}`;
      const stores = await openStores({ kind: 'postgres', connect: { url: url ?? '', schema } });
      cleanups.push(() => stores.close());
      let bus: ClusterBus = localBus(id);
      if (options.bus !== 'none') {
        if (stores.postgres === undefined) throw new Error('no pool');
        const { pool, connect, keys } = stores.postgres;
        bus = await PgBus.start({ daemonId: id, connect, pool, keys });
        const started = bus;
        cleanups.push(() => started.close());
      }
      const remote: string[] = [];
      const service = new TaskService({
        store: stores.tasks,
        incarnation: id,
        bus,
        sweepIntervalMs: 0,
        leaseMs: options.leaseMs ?? 60_000,
        ...(options.ownClock ? { now } : {}),
        onStatusChange: (taskId, origin) => {
          if (origin === 'remote') remote.push(taskId);
        },
      });
      cleanups.push(() => service.close());
      await service.ready;
      out.push({ service, stores, remote });
    }
    return out;
  }

  async function settle(service: TaskService, id: string, statuses: TaskStatus[]) {
    for (let i = 0; i < 400; i++) {
      const task = await service.get(id, 'k');
      if (statuses.includes(task.status)) return task;
      await sleep(5);
    }
    throw new Error('task did not settle');
  }

  /** Work that runs until aborted, announcing its start. */
  function untilAborted(started: () => void) {
    return (env: TaskWorkEnvironment) =>
      new Promise((_, reject) => {
        started();
        env.signal.addEventListener('abort', () => reject(env.signal.reason));
      });
  }

  it('tasks/cancel through B aborts the work running on A; B hears the status change', async () => {
    const [a, b] = (await daemons(2)) as [Daemon, Daemon];
    const task = await a.service.create('k', 'tool');
    let aborted = false;
    let markStarted: () => void = () => {};
    const started = new Promise<void>((r) => {
      markStarted = r;
    });
    a.service.start(task, { cancellation: 'abort' }, (env) => {
      env.signal.addEventListener('abort', () => {
        aborted = true;
      });
      return untilAborted(markStarted)(env);
    });
    await started;
    expect((await b.service.get(task.id, 'k')).status).toBe('working');
    await b.service.cancel(task.id, 'k');
    const end = await settle(b.service, task.id, ['cancelled']);
    expect(aborted).toBe(true);
    expect(end).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled.', leaseOwner: 'daemon-0' });
    for (let i = 0; i < 400 && !b.remote.includes(task.id); i++) await sleep(5);
    expect(b.remote).toContain(task.id);
  });

  it('tasks/update through B answers the input request of the work running on A', async () => {
    const [a, b] = (await daemons(2)) as [Daemon, Daemon];
    const task = await a.service.create('k', 'tool');
    a.service.start(task, { cancellation: 'abort' }, async (env) => {
      const answers = await env.requestInput({
        confirm: { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: {} } } as never,
      });
      return ok(JSON.stringify(answers.confirm));
    });
    const waiting = await settle(b.service, task.id, ['input_required']);
    expect(Object.keys(waiting.inputRequests ?? {})).toEqual(['confirm']);
    await b.service.update(task.id, 'k', { confirm: { action: 'accept', content: { yes: true } } });
    const done = await settle(b.service, task.id, ['completed']);
    expect(done.result).toEqual(ok('{"action":"accept","content":{"yes":true}}'));
  });

  it('a cancellation whose message is lost reaches A through its row at the next lease renewal', async () => {
    const [a, b] = (await daemons(2, { bus: 'none' })) as [Daemon, Daemon];
    const task = await a.service.create('k', 'tool');
    let markStarted: () => void = () => {};
    const started = new Promise<void>((r) => {
      markStarted = r;
    });
    a.service.start(task, { cancellation: 'abort' }, untilAborted(markStarted));
    await started;
    await b.service.cancel(task.id, 'k');
    expect((await b.service.get(task.id, 'k')).status).toBe('working');
    expect((await b.service.get(task.id, 'k')).cancelRequestedAt).not.toBeNull();
    await a.service.checkLeases();
    expect((await settle(b.service, task.id, ['cancelled'])).status).toBe('cancelled');
  });

  it('fails a task whose lease expired, never a live peer’s, also not at start', async () => {
    clock = 1_000_000;
    const [a, b] = (await daemons(2, { leaseMs: 3000, ownClock: true })) as [Daemon, Daemon];
    const task = await a.service.create('k', 'tool');
    a.service.start(
      task,
      { cancellation: 'abort' },
      untilAborted(() => {}),
    );
    // A daemon starting now (C) and B's check both see A's live lease.
    const [c] = (await daemonsOnSameStore(a, 1)) as [TaskService];
    expect(await c.ready).toBe(0);
    await b.service.checkLeases();
    expect((await b.service.get(task.id, 'k')).status).toBe('working');
    // A renews: its lease moves on with the clock.
    clock += 2000;
    await a.service.checkLeases();
    clock += 2000;
    await b.service.checkLeases();
    expect((await b.service.get(task.id, 'k')).status).toBe('working');
    // A stops renewing (as if killed): after the lease, B fails the task.
    clock += 3000;
    await b.service.checkLeases();
    expect(await b.service.get(task.id, 'k')).toMatchObject({
      status: 'failed',
      statusMessage: LEASE_EXPIRED_MESSAGE,
      error: { message: LEASE_EXPIRED_MESSAGE },
    });
  });

  async function daemonsOnSameStore(peer: Daemon, n: number): Promise<TaskService[]> {
    const out: TaskService[] = [];
    for (let i = 0; i < n; i++) {
      const service = new TaskService({
        store: peer.stores.tasks,
        incarnation: `late-${i}`,
        sweepIntervalMs: 0,
        leaseMs: 3000,
        now,
      });
      cleanups.push(() => service.close());
      out.push(service);
    }
    return out;
  }
});
