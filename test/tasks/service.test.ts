/**
 * The task runtime in process, on the in-memory store with a fake clock:
 * fenced statuses, abort vs detach, input_required → update, retention and
 * ttlMs arithmetic, the sweeper, interrupted-on-start, grouped completions.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryTaskStore } from '../../src/store/memory-task-store.js';
import { ttlMsOf } from '../../src/store/task-store.js';
import { INTERRUPTED_MESSAGE, TaskService, type TaskWorkEnvironment } from '../../src/tasks/service.js';

const services: TaskService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

function make(
  options: {
    store?: MemoryTaskStore;
    retentionMs?: number;
    sweepIntervalMs?: number;
    incarnation?: string;
  } = {},
) {
  let now = 1_000_000;
  const store = options.store ?? new MemoryTaskStore();
  const service = new TaskService({
    store,
    incarnation: options.incarnation ?? 'inc-1',
    retentionMs: options.retentionMs ?? 60_000,
    sweepIntervalMs: options.sweepIntervalMs ?? 0,
    now: () => now,
  });
  services.push(service);
  return { service, store, advance: (ms: number) => (now += ms), at: () => now };
}

const ok = (text: string) => ({ content: [{ type: 'text', text }] });

async function settle(
  service: TaskService,
  id: string,
  owner = 'k',
  statuses = ['completed', 'failed', 'cancelled'],
) {
  for (let i = 0; i < 200; i++) {
    const task = await service.get(id, owner);
    if (statuses.includes(task.status)) return task;
    await sleep(5);
  }
  throw new Error('task did not settle');
}

describe('TaskService', () => {
  it('completes with the result; the terminal status is fenced against later writes', async () => {
    const { service, store } = make();
    const task = await service.create('k', 'tool');
    service.start(task, { cancellation: 'abort' }, async () => ok('done'));
    const done = await settle(service, task.id);
    expect(done).toMatchObject({ status: 'completed', result: ok('done') });
    expect(await store.finish(task.id, 'failed', { error: { code: -1, message: 'late' } }, 0)).toBe(false);
    expect(await store.setWorking(task.id, 'again', 0)).toBe(false);
    await service.cancel(task.id, 'k');
    expect((await service.get(task.id, 'k')).status).toBe('completed');
  });

  it('a foreign or keyless owner sees a missing task', async () => {
    const { service } = make();
    const task = await service.create('owner-a', 'tool');
    await expect(service.get(task.id, 'owner-b')).rejects.toThrow(/No task/);
    await expect(service.get(task.id, undefined)).rejects.toThrow(/No task/);
    await expect(service.get('nope', 'owner-a')).rejects.toThrow(/No task/);
  });

  it('abort: the signal reaches the work and the task ends cancelled', async () => {
    const { service } = make();
    const task = await service.create('k', 'tool');
    let aborted = false;
    service.start(task, { cancellation: 'abort' }, async (env) => {
      await new Promise((_, reject) =>
        env.signal.addEventListener('abort', () => {
          aborted = true;
          reject(env.signal.reason);
        }),
      );
    });
    await sleep(5);
    await service.cancel(task.id, 'k');
    const end = await settle(service, task.id);
    expect(aborted).toBe(true);
    expect(end.status).toBe('cancelled');
  });

  it('detach: cancelled at once, the work goes on, its result never overwrites the cancellation', async () => {
    const { service } = make();
    const task = await service.create('k', 'tool');
    let signal: AbortSignal | undefined;
    let finish: (() => void) | undefined;
    service.start(task, { cancellation: 'detach' }, async (env) => {
      signal = env.signal;
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      return ok('late');
    });
    await sleep(5);
    await service.cancel(task.id, 'k');
    expect((await service.get(task.id, 'k')).status).toBe('cancelled');
    expect(signal?.aborted).toBe(false);
    finish?.();
    await sleep(20);
    expect(await service.get(task.id, 'k')).toMatchObject({ status: 'cancelled', result: null });
  });

  it('input_required → tasks/update → working → completed; progress becomes the status message', async () => {
    const { service } = make();
    const task = await service.create('k', 'tool');
    let env: TaskWorkEnvironment | undefined;
    service.start(task, { cancellation: 'abort' }, async (e) => {
      env = e;
      await e.progress(1, 2, 'half way');
      const answers = await e.requestInput({
        confirm: {
          method: 'elicitation/create',
          params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } },
        } as never,
      });
      return ok(JSON.stringify(answers.confirm));
    });
    const waiting = await settle(service, task.id, 'k', ['input_required']);
    expect(waiting.statusMessage).toBe('half way');
    expect(Object.keys(waiting.inputRequests ?? {})).toEqual(['confirm']);
    expect(service.detailed(waiting)).toMatchObject({
      status: 'input_required',
      inputRequests: { confirm: {} },
    });
    await service.update(task.id, 'k', { confirm: { action: 'accept', content: {} } });
    const done = await settle(service, task.id);
    expect(done.result).toEqual(ok('{"action":"accept","content":{}}'));
    expect(env).toBeDefined();
  });

  it('ttlMs is null while running, then terminal time + retention − creation; expired tasks vanish and are swept', async () => {
    const { service, store, advance, at } = make({ retentionMs: 60_000 });
    const task = await service.create('k', 'tool');
    expect(ttlMsOf(task)).toBeNull();
    let release: (() => void) | undefined;
    service.start(task, { cancellation: 'abort' }, async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      return ok('x');
    });
    await sleep(5);
    advance(5_000);
    release?.();
    const done = await settle(service, task.id);
    expect(ttlMsOf(done)).toBe(5_000 + 60_000);
    expect(service.detailed(done).ttlMs).toBe(65_000);
    advance(59_999);
    expect((await service.get(task.id, 'k')).status).toBe('completed');
    advance(1);
    await expect(service.get(task.id, 'k')).rejects.toThrow(/No task/);
    expect(await store.sweep(at())).toBe(1);
  });

  it('the sweeper deletes expired rows on its interval', async () => {
    const store = new MemoryTaskStore();
    const service = new TaskService({ store, incarnation: 'i', retentionMs: 1, sweepIntervalMs: 10 });
    services.push(service);
    const task = await service.create('k', 'tool');
    service.start(task, { cancellation: 'abort' }, async () => ok('x'));
    await sleep(60);
    expect(await store.list(undefined, 0)).toHaveLength(0);
  });

  it('a new incarnation fails what the previous one left running, "interrupted"', async () => {
    const store = new MemoryTaskStore();
    const first = make({ store, incarnation: 'old' });
    const left = await first.service.create('k', 'tool');
    const second = make({ store, incarnation: 'new' });
    expect(await second.service.ready).toBe(1);
    expect(second.service.interruptedAtStart).toBe(1);
    const task = await second.service.get(left.id, 'k');
    expect(task).toMatchObject({ status: 'failed', error: { message: INTERRUPTED_MESSAGE } });
  });

  it('groups completions: many tasks settle in one turn, all readable as completed', async () => {
    const { service } = make();
    const created = await Promise.all(Array.from({ length: 50 }, () => service.create('k', 'tool')));
    const ids = created.map((task) => {
      service.start(task, { cancellation: 'abort' }, async () => ok('x'));
      return task.id;
    });
    await sleep(20);
    expect((await service.list('k')).filter((t) => t.status === 'completed')).toHaveLength(50);
    for (const id of ids) expect((await service.get(id, 'k')).status).toBe('completed');
  });
});
