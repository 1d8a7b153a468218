/**
 * Durable tasks over the daemon's HTTP endpoint, against the real binary
 * (tasks conformance pack), every message checked against the ext-tasks V2
 * schemas: create → working → completed; input_required → update →
 * completed; cancel with abort and with detach; the -32021 cases; another
 * session's task is invisible; keyless calls run synchronously; `kill -9`
 * mid-task → the restarted daemon answers failed "interrupted"; a completed
 * task survives a restart until its retention ends.
 */
import {
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  UpdateTaskResultV2Schema,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import {
  type Answer,
  type Daemon,
  freePort,
  killAll,
  type RpcOptions,
  removeStateDirs,
  rpc as sharedRpc,
  until as sharedUntil,
  startDaemon as startHttpDaemon,
  TASKS,
  tempState,
} from '../tasks/daemon-helpers.js';

const SESSION = 'tasks-e2e-session-a';

/** A daemon serving the tasks conformance pack; `port` reuses a stopped daemon's. */
function startDaemon(stateDir: string, port?: number, extra: string[] = []): Promise<Daemon> {
  return startHttpDaemon(stateDir, ['--pack', 'tasks-conformance', '-w', E2E_WORKSPACE, ...extra], port);
}

async function stop(daemon: Daemon, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) return;
  const exited = new Promise((r) => daemon.child.once('exit', r));
  daemon.child.kill(signal);
  await exited;
}

/** The shared HTTP helper, with this file's session as the default. */
function rpc(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: RpcOptions = {},
): Promise<Answer> {
  return sharedRpc(url, method, params, {
    ...options,
    session: options.session === undefined ? SESSION : options.session,
  });
}

async function createTask(url: string, name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await rpc(url, 'tools/call', { name, arguments: args });
  expect(answer.error).toBeUndefined();
  const created = CreateTaskResultV2Schema.parse(answer.result);
  expect(answer.result).not.toHaveProperty('content');
  expect(created.ttlMs).toBeNull();
  return created.taskId;
}

async function getTask(url: string, taskId: string, session?: string): Promise<Record<string, unknown>> {
  const answer = await rpc(url, 'tasks/get', { taskId }, session ? { session } : {});
  expect(answer.error).toBeUndefined();
  GetTaskResultV2Schema.parse(answer.result);
  return answer.result as Record<string, unknown>;
}

/** Polls this file's session's task until one of `statuses`, every answer checked against the schema. */
function until(
  url: string,
  taskId: string,
  statuses: string[],
  ms?: number,
): Promise<Record<string, unknown>> {
  const eachPoll = (task: Record<string, unknown>) => void GetTaskResultV2Schema.parse(task);
  return sharedUntil(url, taskId, statuses, { session: SESSION, eachPoll }, ms);
}

afterEach(killAll);
afterAll(removeStateDirs);

describe('tasks over HTTP', () => {
  it('create → working → completed, with an immediately readable task and ttlMs after the end', async () => {
    const daemon = await startDaemon(tempState());
    const taskId = await createTask(daemon.url, 'slow_compute', { seconds: 0.4, label: 'lifecycle' });
    expect(Buffer.from(taskId, 'base64url').length).toBeGreaterThanOrEqual(16);
    const first = await getTask(daemon.url, taskId);
    expect(first).toMatchObject({ taskId, status: 'working', ttlMs: null, resultType: 'complete' });
    const done = await until(daemon.url, taskId, ['completed']);
    expect(done.result).toMatchObject({
      content: [{ type: 'text', text: 'Computed after 0.4 s (lifecycle).' }],
    });
    expect(typeof done.ttlMs).toBe('number');
    expect(done.ttlMs as number).toBeGreaterThan(600_000 - 1);
  });

  it('input_required → tasks/update → completed', async () => {
    const daemon = await startDaemon(tempState());
    const taskId = await createTask(daemon.url, 'confirm_delete', { filename: 'notes.txt' });
    const waiting = await until(daemon.url, taskId, ['input_required']);
    const keys = Object.keys(waiting.inputRequests as object);
    expect(keys).toHaveLength(1);
    const ack = await rpc(daemon.url, 'tasks/update', {
      taskId,
      inputResponses: { [keys[0] as string]: { action: 'accept', content: { confirm: true } } },
    });
    expect(UpdateTaskResultV2Schema.parse(ack.result)).toBeTruthy();
    expect(ack.result).not.toHaveProperty('taskId');
    const done = await until(daemon.url, taskId, ['completed']);
    expect(done.result).toMatchObject({ content: [{ text: 'Deleted notes.txt.' }] });
  });

  it('cancel with abort ends cancelled; with detach reports cancelled at once and the late result is dropped', async () => {
    const daemon = await startDaemon(tempState());
    const aborted = await createTask(daemon.url, 'slow_compute', { seconds: 60 });
    const ack = await rpc(daemon.url, 'tasks/cancel', { taskId: aborted });
    CancelTaskResultV2Schema.parse(ack.result);
    expect((await until(daemon.url, aborted, ['cancelled', 'completed', 'failed'], 3000)).status).toBe(
      'cancelled',
    );

    const detached = await createTask(daemon.url, 'slow_detached', { seconds: 0.5 });
    await rpc(daemon.url, 'tasks/cancel', { taskId: detached });
    expect((await getTask(daemon.url, detached)).status).toBe('cancelled');
    await new Promise((r) => setTimeout(r, 800));
    const later = await getTask(daemon.url, detached);
    expect(later.status).toBe('cancelled');
    expect(later).not.toHaveProperty('result');
    // A terminal task's cancel is acknowledged, unchanged.
    expect((await rpc(daemon.url, 'tasks/cancel', { taskId: detached })).result).toMatchObject({
      resultType: 'complete',
    });
  });

  it('answers -32021 to undeclared tasks/* and to a task-only tool; runs undeclared or keyless calls synchronously', async () => {
    const daemon = await startDaemon(tempState());
    const taskId = await createTask(daemon.url, 'slow_compute', { seconds: 0 });
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const refused = await rpc(daemon.url, method, { taskId }, { declare: false });
      expect(refused.error?.code).toBe(-32021);
    }
    const required = await rpc(
      daemon.url,
      'tools/call',
      { name: 'failing_job', arguments: {} },
      { declare: false },
    );
    expect(required.error?.code).toBe(-32021);
    expect(required.error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    const sync = await rpc(
      daemon.url,
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0 } },
      { declare: false },
    );
    expect(sync.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Computed after 0 s.' }] });
    const keyless = await rpc(
      daemon.url,
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0 } },
      { session: null },
    );
    expect(keyless.result).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'Computed after 0 s.' }],
    });
  });

  it("reports another session's task exactly like a missing one", async () => {
    const daemon = await startDaemon(tempState());
    const taskId = await createTask(daemon.url, 'slow_compute', { seconds: 0 });
    const foreign = await rpc(daemon.url, 'tasks/get', { taskId }, { session: 'tasks-e2e-session-b' });
    const missing = await rpc(daemon.url, 'tasks/get', { taskId: 'A'.repeat(taskId.length) });
    expect(foreign.error?.code).toBe(-32602);
    expect(missing.error?.code).toBe(-32602);
    expect(foreign.error?.message.replace(taskId, 'ID')).toBe(
      missing.error?.message.replace('A'.repeat(taskId.length), 'ID'),
    );
  });

  it('kill -9 mid-task: the restarted daemon answers failed "interrupted"; a completed task survives until its retention ends', async () => {
    const state = tempState();
    const port = await freePort();
    let daemon = await startDaemon(state, port, ['--task-retention-ms', '3000']);
    const done = await createTask(daemon.url, 'slow_compute', { seconds: 0 });
    await until(daemon.url, done, ['completed']);
    const doomed = await createTask(daemon.url, 'slow_compute', { seconds: 60 });
    await stop(daemon, 'SIGKILL');
    daemon = await startDaemon(state, port, ['--task-retention-ms', '3000']);
    const interrupted = await getTask(daemon.url, doomed);
    expect(interrupted).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'Task interrupted: the daemon restarted' },
    });
    const survived = await getTask(daemon.url, done);
    expect(survived.status).toBe('completed');
    const ttl = survived.ttlMs as number;
    const left = Date.parse(survived.createdAt as string) + ttl - Date.now();
    await new Promise((r) => setTimeout(r, Math.max(0, left) + 200));
    expect((await rpc(daemon.url, 'tasks/get', { taskId: done })).error?.code).toBe(-32602);
    await stop(daemon);
  }, 20_000);
});
