/**
 * `notifications/tasks` on the 2025 era: a socket connection whose
 * initialize declared the tasks extension hears its own session's task
 * statuses unsolicited; one that did not declare it hears nothing. The task
 * is created over HTTP under the same session key (the 2025 era itself never
 * gets a CreateTaskResult).
 */
import { TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, describe, expect, it } from 'vitest';
import { SocketClient } from '../daemon/socket-client.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { killAll, removeStateDirs, rpc, startDaemon, TASKS, tempState } from '../tasks/daemon-helpers.js';

const SESSION = 'moor-legacy-push-session';

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

async function legacyConnection(socketPath: string, declare: boolean): Promise<SocketClient> {
  const client = new SocketClient(socketPath);
  await client.hello(E2E_WORKSPACE, SESSION);
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
    process.env.MOOR_TEST_PACK = '1';
    const state = tempState('moor-legacy-push-');
    const daemon = await startDaemon(state, ['--pack', 'tasks-conformance', '-w', E2E_WORKSPACE]);
    delete process.env.MOOR_TEST_PACK;
    const socketPath = `${state}/daemon.sock`;
    const declared = await legacyConnection(socketPath, true);
    const undeclared = await legacyConnection(socketPath, false);

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
});
