/**
 * `moor tasks list|get|cancel [--json]` against a real daemon: every task by
 * default, one session's with --session, a table for people, JSON for
 * scripts, exit 3 when no daemon runs.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN } from '../helpers/paths.js';
import { killAll, removeStateDirs, rpc, startDaemon, tempState, until } from '../tasks/daemon-helpers.js';

afterEach(killAll);
afterAll(removeStateDirs);

function moor(stateDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [MOOR_BIN, 'tasks', ...args], {
    env: { ...process.env, MOOR_STATE_DIR: stateDir },
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function create(url: string, session: string, seconds: number): Promise<string> {
  const answer = await rpc(url, 'tools/call', { name: 'slow_compute', arguments: { seconds } }, { session });
  expect(answer.result?.resultType).toBe('task');
  return answer.result?.taskId as string;
}

describe('moor tasks', () => {
  it('lists every task (or one session’s), shows one, cancels one', async () => {
    const state = tempState();
    const daemon = await startDaemon(state, ['--pack', 'tasks-conformance', '-w', E2E_WORKSPACE]);
    const a = await create(daemon.url, 'session-a', 30);
    const b = await create(daemon.url, 'session-b', 0.1);
    await until(daemon.url, b, ['completed'], { session: 'session-b' });

    const all = moor(state, 'list', '--json');
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.stdout) as { tasks: Array<Record<string, unknown>> };
    expect(listed.tasks.map((t) => t.taskId).sort()).toEqual([a, b].sort());
    expect(listed.tasks.find((t) => t.taskId === a)).toMatchObject({
      status: 'working',
      tool: 'slow_compute',
      // A session key is a credential: operators see a prefix of it, never the key.
      owner: 'sessi…',
    });
    expect(all.stdout).not.toContain('session-a');

    const mine = JSON.parse(moor(state, 'list', '--session', 'session-b', '--json').stdout) as {
      tasks: Array<Record<string, unknown>>;
    };
    expect(mine.tasks.map((t) => t.taskId)).toEqual([b]);

    const table = moor(state, 'list');
    expect(table.stdout).toMatch(/^TASK\s+STATUS\s+TOOL\s+OWNER/m);
    expect(table.stdout).toContain('completed');
    expect(table.stdout).toContain('working');

    const shown = moor(state, 'get', b);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`task ${b}`);
    expect(shown.stdout).toMatch(/status:\s+completed/);
    expect(shown.stdout).toContain('Computed after 0.1 s.');

    const cancelled = moor(state, 'cancel', a, '--json');
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ taskId: a });
    const after = await until(daemon.url, a, ['cancelled'], { session: 'session-a' });
    expect(after.status).toBe('cancelled');

    const missing = moor(state, 'get', 'no-such-task');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No task/);
    const foreign = moor(state, 'get', a, '--session', 'session-b');
    expect(foreign.code).toBe(1);
  });

  it('exits 3 when no daemon runs', () => {
    const r = moor(tempState(), 'list');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/not running/);
  });
});
