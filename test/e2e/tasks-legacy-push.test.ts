/**
 * `notifications/tasks` on the 2025 era: a socket connection whose
 * initialize declared the tasks extension hears its own session's task
 * statuses unsolicited; one that did not declare it hears nothing. The task
 * is created over HTTP under the same session key (the 2025 era itself never
 * gets a CreateTaskResult).
 */
import { TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SocketClient } from '../daemon/socket-client.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import {
  type Daemon,
  killAll,
  removeStateDirs,
  rpc,
  startDaemon,
  TASKS,
  tempState,
  until,
} from '../tasks/daemon-helpers.js';

const SESSION = 'moor-legacy-push-session';
let daemon: Daemon;
let socketPath: string;

beforeAll(async () => {
  process.env.MOOR_TEST_PACK = '1';
  const state = tempState('moor-legacy-push-');
  daemon = await startDaemon(state, ['--pack', 'tasks-conformance', '-w', E2E_WORKSPACE]);
  delete process.env.MOOR_TEST_PACK;
  socketPath = `${state}/daemon.sock`;
}, 20_000);

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

async function legacyConnection(declare: boolean, session = SESSION): Promise<SocketClient> {
  const client = new SocketClient(socketPath);
  await client.hello(E2E_WORKSPACE, session);
  const capabilities = declare ? { extensions: { [TASKS]: {} } } : {};
  client.write(
    `${JSON.stringify({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'legacy-push', version: '1' },
      },
    })}\n`,
  );
  await client.response('init');
  client.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return client;
}

describe('notifications/tasks on a 2025 connection', () => {
  it('reach a connection that declared the extension, for its own session, and no other', async () => {
    const declared = await legacyConnection(true);
    const undeclared = await legacyConnection(false);

    const created = await rpc(
      daemon.url,
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.2, label: 'pushed' } },
      { session: SESSION },
    );
    const taskId = (created.result as { taskId: string }).taskId;
    expect(taskId).toBeDefined();

    const pushes = () =>
      declared.lines.filter((l) => l.json.method === 'notifications/tasks').map((l) => l.json);
    const done = await declared.until('a completed task notification', () =>
      pushes().find((n) => (n.params as { status?: string }).status === 'completed'),
    );
    expect(done.params).toMatchObject({ taskId, status: 'completed' });
    for (const notification of pushes())
      expect(() => TaskStatusNotificationV2Schema.parse(notification)).not.toThrow();
    expect(undeclared.lines.some((l) => l.json.method === 'notifications/tasks')).toBe(false);
    declared.socket.destroy();
    undeclared.socket.destroy();
  }, 30_000);

  it("a connection that declares after its session's task finished is told the task's state then, equal to tasks/get", async () => {
    const created = await rpc(
      daemon.url,
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.05, label: 'before-connect' } },
      { session: SESSION },
    );
    const taskId = (created.result as { taskId: string }).taskId;
    const foreign = await rpc(
      daemon.url,
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0.05, label: 'foreign' } },
      { session: 'moor-legacy-push-foreign' },
    );
    const foreignId = (foreign.result as { taskId: string }).taskId;
    const done = await until(daemon.url, taskId, ['completed'], { session: SESSION });
    await until(daemon.url, foreignId, ['completed'], { session: 'moor-legacy-push-foreign' });

    const late = await legacyConnection(true);
    const pushes = () => late.lines.filter((l) => l.json.method === 'notifications/tasks').map((l) => l.json);
    const told = await late.until('the finished task told on declaring', () =>
      pushes().find((n) => (n.params as { taskId?: string }).taskId === taskId),
    );
    expect(() => TaskStatusNotificationV2Schema.parse(told)).not.toThrow();
    // Equal but for _meta (the server info on the tasks/get result).
    const { _meta: _resultMeta, ...got } = done;
    const { _meta, ...state } = told.params as Record<string, unknown>;
    expect(state).toEqual(got);
    expect(state.status).toBe('completed');
    // Of the session's own tasks alone: the foreign session's never comes.
    await rpc(daemon.url, 'tasks/get', { taskId }, { session: SESSION });
    for (const notification of pushes()) {
      expect(() => TaskStatusNotificationV2Schema.parse(notification)).not.toThrow();
      expect((notification.params as { taskId?: string }).taskId).not.toBe(foreignId);
    }
    // A connection that did not declare the extension is told nothing.
    const undeclared = await legacyConnection(false);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 'ping', method: 'ping' });
    undeclared.write(`${ping}\n`);
    await undeclared.response('ping');
    expect(undeclared.lines.some((l) => l.json.method === 'notifications/tasks')).toBe(false);
    late.socket.destroy();
    undeclared.socket.destroy();
  }, 30_000);
});
