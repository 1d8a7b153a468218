/**
 * Task status pushed on listen streams (`notifications/tasks`, the `taskIds`
 * filter), every message checked against the ext-tasks V2 schemas; only the
 * owning session's streams hear it; and the trace context of a failing
 * call reaches its log line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TaskStatusNotificationV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListenStreamFrames, openListenStream } from '../helpers/listen-stream.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { until as untilTrue } from '../helpers/until.js';
import {
  authHeaders,
  type Daemon,
  killAll,
  removeStateDirs,
  rpc,
  startDaemon,
  tempState,
  until,
} from '../tasks/daemon-helpers.js';

const _MODERN = '2026-07-28';
const OWNER = 'tasks-e2e-session';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
let daemon: Daemon;
let state: string;

/** A raw listen stream on this file's daemon. */
function listen(
  filter: Record<string, unknown>,
  session: string,
  declare = true,
): Promise<ListenStreamFrames> {
  return openListenStream(daemon.url, filter, session, { declare, headers: authHeaders(daemon.url) });
}

beforeAll(async () => {
  process.env.MOOR_TEST_PACK = '1';
  state = tempState('moor-tasks-events-');
  daemon = await startDaemon(state, [
    '--pack',
    'tasks-conformance',
    '-w',
    E2E_WORKSPACE,
    '--log-level',
    'debug',
  ]);
  delete process.env.MOOR_TEST_PACK;
}, 20_000);

afterAll(async () => {
  await killAll();
  removeStateDirs();
});

describe('notifications/tasks on listen streams', () => {
  it("the owner's stream hears each status of the tasks it named; another session's hears nothing of them", async () => {
    const created = await rpc(daemon.url, 'tools/call', {
      name: 'confirm_delete',
      arguments: { filename: 'a.txt' },
    });
    const taskId = (created.result as { taskId: string }).taskId;
    const waiting = await until(daemon.url, taskId, ['input_required']);
    const mine = await listen({ taskIds: [taskId] }, OWNER);
    const theirs = await listen({ taskIds: [taskId] }, 'another-session');
    await untilTrue(() => mine.frames.length > 0 && theirs.frames.length > 0);
    expect(mine.frames[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: [taskId] } },
    });

    const key = Object.keys(waiting.inputRequests as object)[0] as string;
    await rpc(daemon.url, 'tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    const statusOf = (f: Record<string, unknown>) => (f.params as { status?: string }).status;
    await untilTrue(() => mine.frames.some((f) => statusOf(f) === 'completed'), 10_000);
    const pushed = mine.frames.filter((f) => f.method === 'notifications/tasks');
    for (const frame of pushed) {
      expect(() => TaskStatusNotificationV2Schema.parse(frame)).not.toThrow();
      expect(frame.params).toMatchObject({
        taskId,
        _meta: { 'io.modelcontextprotocol/subscriptionId': `listen-${OWNER}` },
      });
    }
    expect(pushed.at(-1)?.params).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'Deleted a.txt.' }] },
    });
    // The other session's stream got its acknowledgement and nothing else.
    expect(theirs.frames.map((f) => f.method)).toEqual(['notifications/subscriptions/acknowledged']);
    mine.close();
    theirs.close();
  }, 30_000);

  it('a stream opened after its task completed is told the terminal state at once, equal to tasks/get', async () => {
    const created = await rpc(daemon.url, 'tools/call', {
      name: 'confirm_delete',
      arguments: { filename: 'b.txt' },
    });
    const taskId = (created.result as { taskId: string }).taskId;
    const waiting = await until(daemon.url, taskId, ['input_required']);
    const key = Object.keys(waiting.inputRequests as object)[0] as string;
    await rpc(daemon.url, 'tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    const done = await until(daemon.url, taskId, ['completed']);
    const stream = await listen({ taskIds: [taskId, 'no-such-task'] }, OWNER);
    await untilTrue(() => stream.frames.some((f) => f.method === 'notifications/tasks'), 10_000);
    expect(stream.frames[0]?.params).toMatchObject({ notifications: { taskIds: [taskId] } });
    const pushed = stream.frames.filter((f) => f.method === 'notifications/tasks');
    expect(pushed).toHaveLength(1);
    expect(() => TaskStatusNotificationV2Schema.parse(pushed[0])).not.toThrow();
    // Equal but for _meta: the subscription id on the notification, the server info on the result.
    const { _meta, ...state } = (pushed[0]?.params ?? {}) as Record<string, unknown>;
    const { _meta: _resultMeta, ...got } = done;
    expect(state).toEqual(got);
    expect(state.status).toBe('completed');
    stream.close();
  }, 30_000);

  it("the acknowledgement echoes the session's own task ids alone: an unknown or another session's id is left out", async () => {
    const mineCreated = await rpc(daemon.url, 'tools/call', {
      name: 'confirm_delete',
      arguments: { filename: 'c.txt' },
    });
    const mineId = (mineCreated.result as { taskId: string }).taskId;
    const foreignCreated = await rpc(
      daemon.url,
      'tools/call',
      { name: 'confirm_delete', arguments: { filename: 'd.txt' } },
      { session: 'foreign-owner-session' },
    );
    const foreignId = (foreignCreated.result as { taskId: string }).taskId;
    expect(foreignId).toMatch(/./);
    await until(daemon.url, mineId, ['input_required']);
    const stream = await listen({ taskIds: [foreignId, mineId, 'no-such-task'] }, OWNER);
    await untilTrue(() => stream.frames.length >= 2, 10_000);
    expect(stream.frames[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { taskIds: [mineId] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': `listen-${OWNER}` },
      },
    });
    // The one state told is the session's own task's; the foreign one is never sent.
    expect(stream.frames.slice(1).map((f) => (f.params as { taskId?: string }).taskId)).toEqual([mineId]);
    // A stream naming only ids the session does not own is acknowledged with none of them.
    const strangers = await listen({ taskIds: [foreignId, 'no-such-task'] }, OWNER);
    await untilTrue(() => strangers.frames.length > 0, 10_000);
    expect(strangers.frames[0]?.params).toMatchObject({ notifications: { taskIds: [] } });
    stream.close();
    strangers.close();
  }, 30_000);

  it('task ids from a client that did not declare the extension are refused with -32021', async () => {
    const refused = await listen({ taskIds: ['x'] }, OWNER, false);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ id: `listen-${OWNER}`, error: { code: -32021 } });
  });
});

describe('trace context in the log', () => {
  it("a failing tool's error line carries the caller's trace id, never tracestate or baggage", async () => {
    const answer = await rpc(daemon.url, 'tools/call', {
      name: 'broken_tool',
      arguments: {},
      _meta: {
        traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`,
        tracestate: 'vendor=secret-state',
        baggage: 'user=secret-baggage',
      },
    });
    expect(answer.result).toMatchObject({ isError: true });
    const log = path.join(state, 'daemon.log');
    const failure = () =>
      fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .find((l) => l.includes('tool broken_tool failed'));
    await untilTrue(() => failure() !== undefined, 5000);
    const line = JSON.parse(failure() as string) as { level: number; msg: string; trace?: string };
    expect(line.level).toBe(50);
    expect(line.trace).toBe(TRACE_ID);
    expect(line.msg).toContain(`trace=${TRACE_ID}`);
    const text = fs.readFileSync(log, 'utf8');
    expect(text).not.toContain('secret-state');
    expect(text).not.toContain('secret-baggage');
    // A successful HTTP request is logged at debug, with its trace.
    await untilTrue(
      () => fs.readFileSync(log, 'utf8').includes(`http: tools/call ok trace=${TRACE_ID}`),
      5000,
    );
  });
});
