/**
 * Durable tasks through the proxy (`moor stdio`), raw JSON-RPC lines with the
 * 2026-07-28 envelope declaring the extension (the SDK client refuses a
 * CreateTaskResult). kill -9 the daemon: the proxy starts another, and the
 * same session key still reads its tasks — a working one failed
 * "interrupted", a completed one with its stored result. A tasks/get in
 * flight at the crash is sent again; a tasks/update in flight is answered
 * -32051 "may or may not have completed".
 */
import { GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, incarnationPid, makeState, waitFor } from '../daemon/harness.js';
import { ProxyClient } from '../proxy/proxy-client.js';

afterEach(cleanupAll);

const TASKS = 'io.modelcontextprotocol/tasks';
const DECLARE = {
  _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} }, elicitation: {} } },
};
const RESTARTED = 'the daemon restarted while this call ran; it may or may not have completed';

async function call(client: ProxyClient, method: string, params: Record<string, unknown>) {
  return client.request(method, { ...params, ...DECLARE }, true);
}

async function createTask(client: ProxyClient, name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await call(client, 'tools/call', { name, arguments: args });
  expect(answer.error).toBeUndefined();
  expect(answer.result).toMatchObject({ resultType: 'task', status: 'working' });
  return answer.result?.taskId as string;
}

async function until(client: ProxyClient, taskId: string, status: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await call(client, 'tasks/get', { taskId });
    expect(answer.error).toBeUndefined();
    if (answer.result?.status === status) return answer.result;
    if (Date.now() > deadline) throw new Error(`task stayed ${String(answer.result?.status)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('tasks through the proxy', () => {
  it('survive kill -9 of the daemon: interrupted, stored results, safe re-sends only', async () => {
    const state = makeState({ MOOR_PACKS: 'tasks-conformance' });
    const client = new ProxyClient(state);
    const working = await createTask(client, 'slow_compute', { seconds: 60 });
    const done = await createTask(client, 'slow_compute', { seconds: 0.1, label: 'kept' });
    const asking = await createTask(client, 'confirm_delete', { filename: 'notes.txt' });
    await until(client, done, 'completed');
    await until(client, asking, 'input_required');

    // Freeze the daemon so that these two are in flight (written, unanswered) when it dies.
    const first = incarnationPid(state) as number;
    process.kill(first, 'SIGSTOP');
    const update = client.send(
      'tasks/update',
      {
        taskId: asking,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        ...DECLARE,
      },
      true,
    );
    const get = client.send('tasks/get', { taskId: done, ...DECLARE }, true);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(first, 'SIGKILL');

    const updated = await client.response(update);
    expect(updated.error).toMatchObject({ code: -32051, message: RESTARTED });
    const got = await client.response(get);
    expect(got.error).toBeUndefined();
    GetTaskResultV2Schema.parse(got.result);
    expect(got.result).toMatchObject({ taskId: done, status: 'completed' });
    expect(got.result?.result).toMatchObject({
      content: [{ type: 'text', text: 'Computed after 0.1 s (kept).' }],
    });
    const second = await waitFor('a new daemon', () => {
      const pid = incarnationPid(state);
      return pid !== undefined && pid !== first ? pid : undefined;
    });
    expect(second).not.toBe(first);

    for (const taskId of [working, asking]) {
      const answer = await call(client, 'tasks/get', { taskId });
      expect(answer.error).toBeUndefined();
      GetTaskResultV2Schema.parse(answer.result);
      expect(answer.result).toMatchObject({ taskId, status: 'failed' });
      expect(answer.result?.error).toMatchObject({ message: expect.stringMatching(/interrupted/) });
    }
    // Cancelling a task that already ended is acknowledged; the task stays as it was.
    const cancel = await call(client, 'tasks/cancel', { taskId: working });
    expect(cancel.error).toBeUndefined();
    expect(client.responses(update)).toHaveLength(1);
    expect(client.responses(get)).toHaveLength(1);
    expect(await client.close()).toBe(0);
  });
});
