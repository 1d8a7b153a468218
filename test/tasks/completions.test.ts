/**
 * Task completions while PostgreSQL cannot be reached (a relay of this
 * test's own that it cuts, between two daemons' task services and the real
 * server, as a real outage cuts every daemon off): each result is kept and
 * written once the store answers, no task reads "interrupted" though the
 * leases ran out meanwhile, what is kept is bounded in bytes (past the
 * budget the task fails saying so), and a daemon closing with completions
 * unwritten logs how many and which.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isMoorError } from '../../src/errors.js';
import { openStores } from '../../src/store/open.js';
import { RESULT_NOT_KEPT_MESSAGE, TaskService } from '../../src/tasks/service.js';
import { dropSchemas, freshSchema, pgUrl } from '../helpers/pg.js';
import { type CuttableLink, cuttableLink, viaLink } from '../helpers/tcp-cut.js';
import { until } from '../helpers/until.js';

const url = pgUrl();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(dropSchemas);

const LEASE_MS = 60_000;
const ok = (text: string) => ({ content: [{ type: 'text', text }] });

interface Logged {
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

interface Daemon {
  readonly service: TaskService;
  readonly logs: Logged[];
}

/** A promise the test resolves: a task's work that finishes when told. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

function storeCode(error: unknown): string | undefined {
  return isMoorError(error) ? error.code : undefined;
}

describe.skipIf(url === null)('task completions while PostgreSQL is unreachable', () => {
  let clock = Date.now();
  const now = () => clock;

  async function cluster(
    n: number,
    options: { unwrittenResultBytes?: number } = {},
  ): Promise<{ link: CuttableLink; daemons: Daemon[] }> {
    const target = new URL(url ?? '');
    const link = await cuttableLink(target.hostname, Number(target.port || 5432));
    cleanups.push(() => link.close());
    const schema = freshSchema();
    const daemons: Daemon[] = [];
    for (let i = 0; i < n; i++) {
      const stores = await openStores({
        kind: 'postgres',
        connect: { url: viaLink(url ?? '', link), schema },
      });
      cleanups.push(() => stores.close());
      const logs: Logged[] = [];
      const service = new TaskService({
        store: stores.tasks,
        incarnation: `daemon-${i}`,
        sweepIntervalMs: 0,
        leaseMs: LEASE_MS,
        now,
        closeFlushMs: 500,
        unwrittenResultBytes: options.unwrittenResultBytes,
        log: (message, fields) => logs.push({ message, fields: fields ?? {} }),
      });
      cleanups.push(() => service.close());
      await service.ready;
      daemons.push({ service, logs });
    }
    return { link, daemons };
  }

  /** Starts one task per result on `daemon`, each finishing when its gate opens. */
  async function startTasks(daemon: Daemon, results: readonly unknown[]) {
    const started = [];
    for (const result of results) {
      const task = await daemon.service.create('k', 'tool');
      const finish = gate();
      daemon.service.start(task, { cancellation: 'abort' }, async () => {
        await finish.opened;
        return result;
      });
      started.push({ id: task.id, result, finish: finish.open });
    }
    return started;
  }

  /** Waits (reading the rows) until every task has ended, then returns them. */
  async function ended(service: TaskService, ids: readonly string[]) {
    const read = () => Promise.all(ids.map((id) => service.get(id, 'k')));
    let rows = await read();
    const deadline = Date.now() + 10_000;
    while (rows.some((task) => task.status === 'working')) {
      if (Date.now() > deadline) throw new Error('tasks still working');
      await new Promise((resolve) => setTimeout(resolve, 5));
      rows = await read();
    }
    return rows;
  }

  it('keeps every result finished during the outage and writes it once the store answers; none reads interrupted', async () => {
    const { link, daemons } = await cluster(2);
    const [a, b] = daemons as [Daemon, Daemon];
    const tasks = await startTasks(
      a,
      Array.from({ length: 20 }, (_, i) => ok(`result ${i}`)),
    );

    link.cut();
    for (const task of tasks) task.finish();
    await until(() => a.service.unwrittenCompletions().length === tasks.length);
    expect(a.logs.map((l) => l.message)).toContain(
      'task completions kept: the store cannot be reached; retrying until it answers',
    );
    // Its own daemon cannot read the row either: the store-unavailable error, never a guess.
    expect(storeCode(await a.service.get(tasks[0]?.id, 'k').catch((e: unknown) => e))).toBe(
      'STORE_UNAVAILABLE',
    );
    // The outage outlasts the leases; the peer's lease check fails like every other query.
    clock += 2 * LEASE_MS;
    expect(storeCode(await b.service.checkLeases().catch((e: unknown) => e))).toBe('STORE_UNAVAILABLE');

    link.restore();
    // The peer's first look after the outage, before the finishing daemon has written anything.
    await b.service.checkLeases();
    const rows = await ended(
      b.service,
      tasks.map((t) => t.id),
    );
    for (const [i, row] of rows.entries())
      expect(row, `task ${i}`).toMatchObject({ status: 'completed', result: ok(`result ${i}`) });
    expect(a.service.unwrittenCompletions()).toEqual([]);
    expect(a.logs.map((l) => l.message)).toContain('kept task completions written: the store answers again');
  });

  it('writes what is kept at its first lease check after the outage, before a peer may expire it', async () => {
    const { link, daemons } = await cluster(2);
    const [a, b] = daemons as [Daemon, Daemon];
    const tasks = await startTasks(a, [ok('one'), ok('two')]);
    link.cut();
    for (const task of tasks) task.finish();
    await until(() => a.service.unwrittenCompletions().length === tasks.length);
    link.restore();
    // A's lease check runs first; then a full lease passes for the peer, which expires what is left.
    await a.service.checkLeases();
    clock += 2 * LEASE_MS;
    await b.service.checkLeases();
    await b.service.checkLeases();
    const rows = await ended(
      b.service,
      tasks.map((t) => t.id),
    );
    expect(rows.map((r) => [r.status, r.result])).toEqual([
      ['completed', ok('one')],
      ['completed', ok('two')],
    ]);
  });

  it('keeps results up to its byte budget; past it the task fails saying why, once the store answers', async () => {
    const { link, daemons } = await cluster(1, { unwrittenResultBytes: 1_000 });
    const [a] = daemons as [Daemon];
    const large = ok('x'.repeat(5_000));
    const tasks = await startTasks(a, [ok('small before'), large, ok('small after')]);
    link.cut();
    for (const task of tasks) task.finish();
    await until(() => a.service.unwrittenCompletions().length === tasks.length);
    const tooLarge = a.logs.find((l) => l.message.startsWith('a task result too large to keep'));
    expect(tooLarge?.fields).toEqual({ task: tasks[1]?.id, bytes: expect.any(Number) });
    expect(tooLarge?.fields.bytes).toBeGreaterThan(5_000);

    link.restore();
    const rows = await ended(
      a.service,
      tasks.map((t) => t.id),
    );
    expect(rows[0]).toMatchObject({ status: 'completed', result: ok('small before') });
    expect(rows[1]).toMatchObject({
      status: 'failed',
      statusMessage: RESULT_NOT_KEPT_MESSAGE,
      error: { code: -32603, message: RESULT_NOT_KEPT_MESSAGE },
    });
    expect(rows[1]?.result).toBeNull();
    expect(rows[2]).toMatchObject({ status: 'completed', result: ok('small after') });
  });

  it('closing with completions unwritten tries once more, briefly, and logs how many and which', async () => {
    const { link, daemons } = await cluster(1);
    const [a] = daemons as [Daemon];
    const tasks = await startTasks(a, [ok('one'), ok('two'), ok('three')]);
    link.cut();
    for (const task of tasks) task.finish();
    await until(() => a.service.unwrittenCompletions().length === tasks.length);
    await a.service.close();
    const shutdown = a.logs.filter((l) => l.message.includes('unwritten at shutdown'));
    expect(shutdown).toHaveLength(1);
    expect(shutdown[0]?.message).toBe(
      '3 task completion(s) unwritten at shutdown: the store could not be reached; those tasks will read failed',
    );
    expect(shutdown[0]?.fields.count).toBe(3);
    expect([...((shutdown[0]?.fields.tasks ?? []) as string[])].sort()).toEqual(
      tasks.map((t) => t.id).sort(),
    );
  });

  it('closing writes what the store takes in its last try, and then logs nothing unwritten', async () => {
    const { link, daemons } = await cluster(2);
    const [a, b] = daemons as [Daemon, Daemon];
    const tasks = await startTasks(a, [ok('one')]);
    link.cut();
    for (const task of tasks) task.finish();
    await until(() => a.service.unwrittenCompletions().length === 1);
    link.restore();
    await a.service.close();
    expect(a.logs.filter((l) => l.message.includes('unwritten at shutdown'))).toEqual([]);
    expect(await b.service.get(tasks[0]?.id, 'k')).toMatchObject({ status: 'completed', result: ok('one') });
  });
});
