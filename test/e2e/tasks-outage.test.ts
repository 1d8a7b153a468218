/**
 * The built daemon on PostgreSQL through a relay this test cuts (the
 * server's outage as the daemon sees it): tasks that finish while the store
 * is unreachable read completed with their results once it answers again,
 * never "interrupted"; meanwhile tasks/get answers the store-unavailable
 * error; a daemon stopped with completions unwritten names them in its log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { dropSchemas, pgUrl, schemaUrl } from '../helpers/pg.js';
import { type CuttableLink, cuttableLink, viaLink } from '../helpers/tcp-cut.js';
import { until as untilTrue } from '../helpers/until.js';
import {
  type Daemon,
  killAll,
  removeStateDirs,
  rpc,
  startDaemon,
  tempState,
  until,
} from '../tasks/daemon-helpers.js';

const url = pgUrl();
const links: CuttableLink[] = [];
afterEach(async () => {
  await killAll();
  for (const link of links.splice(0)) await link.close();
});
afterAll(async () => {
  removeStateDirs();
  await dropSchemas();
});

/** A daemon whose store is reached through a relay of this test's. */
async function daemonBehindLink(): Promise<{ daemon: Daemon; link: CuttableLink; log: () => string }> {
  const target = new URL(url ?? '');
  const link = await cuttableLink(target.hostname, Number(target.port || 5432));
  links.push(link);
  const state = tempState('moor-tasks-outage-');
  const store = viaLink(schemaUrl(url ?? ''), link);
  const daemon = await startDaemon(state, [
    '--pack',
    'tasks-conformance',
    '-w',
    E2E_WORKSPACE,
    '--store',
    store,
  ]);
  const log = () => fs.readFileSync(path.join(state, 'daemon.log'), 'utf8');
  return { daemon, link, log };
}

/** Starts `n` one-second tasks and cuts the store off before any can finish. */
async function tasksFinishingInOutage(daemon: Daemon, link: CuttableLink, n: number): Promise<string[]> {
  // The session is stored first (its first call stores it): the tasks' work then needs the store only to finish.
  const greeted = await rpc(
    daemon.url,
    'tools/call',
    { name: 'greet', arguments: { name: 'outage' } },
    { declare: false },
  );
  expect(greeted.error).toBeUndefined();
  const calls = Array.from({ length: n }, (_, i) =>
    rpc(daemon.url, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1, label: `task ${i}` } }),
  );
  const ids = (await Promise.all(calls)).map((answer) => {
    expect(answer.error).toBeUndefined();
    return (answer.result as { taskId: string }).taskId;
  });
  link.cut();
  return ids;
}

function logLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const KEPT = 'task completions kept: the store cannot be reached; retrying until it answers';

describe.skipIf(url === null)('tasks while PostgreSQL is unreachable (built daemon)', () => {
  it('every task finished during the outage reads completed with its result once the store answers', async () => {
    const { daemon, link, log } = await daemonBehindLink();
    const ids = await tasksFinishingInOutage(daemon, link, 20);
    await untilTrue(() => logLines(log()).some((line) => line.msg === KEPT && line.unwritten === 20), 10_000);

    const during = await rpc(daemon.url, 'tasks/get', { taskId: ids[0] });
    expect(during.error).toMatchObject({ code: -32051, data: { executed: false } });

    link.restore();
    for (const [i, id] of ids.entries()) {
      const task = await until(daemon.url, id, ['completed', 'failed', 'cancelled']);
      expect(task, `task ${i}`).toMatchObject({
        status: 'completed',
        result: { structuredContent: { text: `Computed after 1 s (task ${i}).` } },
      });
    }
  });

  it('a daemon stopped with completions unwritten logs how many and which', async () => {
    const { daemon, link, log } = await daemonBehindLink();
    const ids = await tasksFinishingInOutage(daemon, link, 3);
    await untilTrue(() => logLines(log()).some((line) => line.msg === KEPT && line.unwritten === 3), 10_000);

    const exited = new Promise((resolve) => daemon.child.once('exit', resolve));
    daemon.child.kill('SIGTERM');
    await exited;
    const shutdown = logLines(log()).filter((line) => String(line.msg).includes('unwritten at shutdown'));
    expect(shutdown).toHaveLength(1);
    expect(shutdown[0]?.msg).toBe(
      '3 task completion(s) unwritten at shutdown: the store could not be reached; those tasks will read failed',
    );
    expect(shutdown[0]?.count).toBe(3);
    expect([...((shutdown[0]?.tasks ?? []) as string[])].sort()).toEqual([...ids].sort());
  });
});
