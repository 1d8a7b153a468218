/**
 * Scale-out through a real balancer: two built daemons sharing one
 * PostgreSQL store (a schema of this run), each with its own state dir,
 * behind HAProxy round robin with /healthz checks and no stickiness
 * (scripts/cluster.mjs). With the official SDK client in both eras: mixed
 * calls spread over both daemons; a session's tasks followed across them
 * (Moor-Session); a task created on one daemon polled and cancelled through
 * the other, the cancellation reaching its work through the cluster bus;
 * `kill -9` of a daemon under load: the balancer moves to the survivor,
 * every request is answered (a failure is an HTTP error the client may
 * retry), and the dead daemon's running task reads "interrupted" once its
 * lease has run out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  GetTaskResultV2Schema,
  TaskStatusNotificationV2Schema,
} from '@modelcontextprotocol/ext-tasks/core/v2';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no types
import { startCluster } from '../../scripts/cluster.mjs';
import { openListenStream } from '../helpers/listen-stream.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { dropSchemas, pgUrl, schemaUrl } from '../helpers/pg.js';
import type { EraMode } from '../helpers/sdk-client.js';
import { until as untilTrue } from '../helpers/until.js';
import { authHeaders, rememberToken, rpc, until } from '../tasks/daemon-helpers.js';

interface ClusterDaemon {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  readonly child: import('node:child_process').ChildProcess;
}
interface Cluster {
  readonly url: string;
  readonly token: string;
  readonly daemons: ClusterDaemon[];
  stop(): Promise<void>;
}

const HAPROXY = process.env.HAPROXY ?? '/usr/sbin/haproxy';
const haveHaproxy = fs.existsSync(HAPROXY);
if (!haveHaproxy && process.env.CI === 'true') throw new Error(`HAProxy is required in CI (${HAPROXY})`);
const server = haveHaproxy ? pgUrl() : null;

const SESSION = 'scale-out-session-a';
const INTERRUPTED = 'Task interrupted: the daemon running it stopped';
const clients: Client[] = [];
const clusters: Cluster[] = [];

function cluster(leaseMs: number): Promise<Cluster> {
  return startCluster({
    daemons: 2,
    store: schemaUrl(server ?? ''),
    extra: ['--pack', 'tasks-conformance', '-w', E2E_WORKSPACE, '--task-lease-ms', String(leaseMs)],
    env: { MOOR_TEST_PACK: '1' },
  }).then((c: Cluster) => {
    clusters.push(c);
    // One token for every daemon of the cluster and for the balancer in front of them.
    for (const url of [c.url, ...c.daemons.map((d) => d.url)]) rememberToken(url, c.token);
    return c;
  });
}

async function connect(url: string, mode: EraMode, session = SESSION): Promise<Client> {
  const client = new Client(
    { name: 'moor-scale-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : mode } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { ...authHeaders(url), 'Moor-Session': session } },
    }),
  );
  clients.push(client);
  return client;
}

async function createTask(url: string, args: Record<string, unknown>, session = SESSION): Promise<string> {
  const answer = await rpc(url, 'tools/call', { name: 'slow_compute', arguments: args }, { session });
  expect(answer.error).toBeUndefined();
  expect(answer.result).toMatchObject({ resultType: 'task', status: 'working' });
  return (answer.result as { taskId: string }).taskId;
}

async function getTask(url: string, taskId: string, session = SESSION): Promise<Record<string, unknown>> {
  const answer = await rpc(url, 'tasks/get', { taskId }, { session });
  expect(answer.error).toBeUndefined();
  GetTaskResultV2Schema.parse(answer.result);
  return answer.result as Record<string, unknown>;
}

/** The pid a slow_read call reports: which daemon served it. */
async function servedBy(client: Client, ms = 0): Promise<number> {
  const result = await client.callTool({ name: 'slow_read', arguments: { ms } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { pid: number }).pid;
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
});

afterAll(async () => {
  for (const c of clusters.splice(0)) await c.stop();
  await dropSchemas();
});

describe.skipIf(server === null)('scale-out behind HAProxy on PostgreSQL', () => {
  let shared: Cluster;

  beforeAll(async () => {
    // A long lease: a cancellation seen here travelled on the bus, not with a lease renewal.
    shared = await cluster(60_000);
  }, 60_000);

  it('spreads 200 mixed calls in both eras over both daemons, every one answered', async () => {
    const pids = new Set<number>();
    for (const mode of ['legacy', 'modern'] as const) {
      const client = await connect(shared.url, mode);
      for (let i = 0; i < 100; i++) {
        if (i % 4 === 0) {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).toContain('slow_compute');
        } else if (i % 4 === 1) {
          const decision = await client.callTool({ name: 'get_decision', arguments: { ref: '3' } });
          expect(JSON.stringify(decision.structuredContent)).toContain('0003');
        } else pids.add(await servedBy(client));
      }
    }
    expect([...pids].sort()).toEqual(shared.daemons.map((d) => d.pid).sort());
  }, 60_000);

  it('follows a session’s tasks across daemons; another session never sees them', async () => {
    const [a, b] = shared.daemons as [ClusterDaemon, ClusterDaemon];
    const onA = await createTask(a.url, { seconds: 0.3, label: 'on-a' });
    const onB = await createTask(b.url, { seconds: 0.3, label: 'on-b' });
    // Each is readable at once on the other daemon, and through the balancer on either.
    expect(await getTask(b.url, onA)).toMatchObject({ taskId: onA, status: 'working' });
    expect(await getTask(a.url, onB)).toMatchObject({ taskId: onB, status: 'working' });
    for (let i = 0; i < 4; i++) expect((await getTask(shared.url, onA)).taskId).toBe(onA);
    const doneA = await until(b.url, onA, ['completed'], { session: SESSION });
    expect(doneA.result).toMatchObject({ content: [{ text: 'Computed after 0.3 s (on-a).' }] });
    const doneB = await until(a.url, onB, ['completed'], { session: SESSION });
    expect(doneB.result).toMatchObject({ content: [{ text: 'Computed after 0.3 s (on-b).' }] });
    for (const url of [a.url, b.url]) {
      const foreign = await rpc(url, 'tasks/get', { taskId: onA }, { session: 'scale-out-session-b' });
      expect(foreign.error).toMatchObject({ code: -32602 });
    }
  }, 30_000);

  it('follows a session’s workspace bindings across daemons: a switch on one is what the other serves', async () => {
    const [a, b] = shared.daemons as [ClusterDaemon, ClusterDaemon];
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-scale-ws-'));
    fs.mkdirSync(path.join(other, 'docs/decisions'), { recursive: true });
    fs.writeFileSync(
      path.join(other, 'docs/decisions/0001-other.md'),
      '# 1. Other\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n',
    );
    const session = 'scale-out-bindings';
    const onA = await connect(a.url, 'modern', session);
    const onB = await connect(b.url, 'modern', session);
    const root = fs.realpathSync(other);
    const connected = await onA.callTool({ name: 'connect_workspace', arguments: { path: root } });
    expect(connected.isError).toBeFalsy();
    const seenOnB = await onB.callTool({ name: 'list_workspaces', arguments: {} });
    const listed = seenOnB.structuredContent as {
      active: { root: string } | null;
      parked: Array<{ root: string }>;
    };
    expect(listed.active?.root).toBe(root);
    expect(listed.parked.map((p) => p.root)).toContain(fs.realpathSync(E2E_WORKSPACE));
    // B disconnects it; A, which has the session cached, hears of it on the bus (NOTIFY, a few ms later).
    await onB.callTool({ name: 'disconnect_workspace', arguments: {} });
    type Listing = { active: unknown; lastDrop: { reason: string } | null };
    const listOnA = async () =>
      (await onA.callTool({ name: 'list_workspaces', arguments: {} })).structuredContent as Listing;
    let after = await listOnA();
    for (const deadline = Date.now() + 10_000; after.active !== null && Date.now() < deadline; )
      after = await listOnA();
    expect(after.active).toBeNull();
    expect(after.lastDrop?.reason).toBe('disconnected');
    fs.rmSync(other, { recursive: true, force: true });
  }, 30_000);

  it('a listen stream on one daemon hears the status of a task that runs on the other', async () => {
    const [a, b] = shared.daemons as [ClusterDaemon, ClusterDaemon];
    const taskId = await createTask(a.url, { seconds: 0.3, label: 'heard-on-b' });
    const onB = await openListenStream(b.url, { taskIds: [taskId] }, SESSION, {
      headers: authHeaders(b.url),
    });
    try {
      const statusOf = (f: Record<string, unknown>) => (f.params as { status?: string } | undefined)?.status;
      await untilTrue(() => onB.frames.some((f) => statusOf(f) === 'completed'), 15_000);
      const pushed = onB.frames.filter((f) => f.method === 'notifications/tasks');
      for (const frame of pushed) expect(() => TaskStatusNotificationV2Schema.parse(frame)).not.toThrow();
      expect(pushed.at(-1)?.params).toMatchObject({ taskId, status: 'completed' });
    } finally {
      onB.close();
    }
  }, 30_000);

  it('a task created on one daemon is polled and cancelled through the other: the cancel reaches its work', async () => {
    const [a, b] = shared.daemons as [ClusterDaemon, ClusterDaemon];
    const taskId = await createTask(a.url, { seconds: 60 });
    const progressed = await until(b.url, taskId, ['working'], { session: SESSION });
    expect(progressed.status).toBe('working');
    const ack = await rpc(b.url, 'tasks/cancel', { taskId }, { session: SESSION });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    // Cancelled by the work's abort on A (the lease renewal would come only after 20 s).
    const cancelled = await until(a.url, taskId, ['cancelled', 'failed', 'completed'], { session: SESSION });
    expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled.' });
    expect((await getTask(b.url, taskId)).status).toBe('cancelled');
  }, 30_000);
});

describe.skipIf(server === null)('kill -9 of a daemon behind HAProxy', () => {
  it('moves traffic to the survivor, answers every request, and the dead daemon’s task reads interrupted', async () => {
    const c = await cluster(1500);
    const [victim, survivor] = c.daemons as [ClusterDaemon, ClusterDaemon];
    const running = await createTask(victim.url, { seconds: 120, label: 'orphan' });
    const client = await connect(c.url, 'modern');
    const legacy = await connect(c.url, 'legacy');

    const outcomes: Array<{ ok: true; pid: number } | { ok: false; error: string }> = [];
    let killed = false;
    const worker = async (which: Client) => {
      for (let i = 0; i < 60; i++) {
        if (i === 20 && !killed) {
          killed = true;
          victim.child.kill('SIGKILL');
        }
        try {
          outcomes.push({ ok: true, pid: await servedBy(which, 5) });
        } catch (error) {
          outcomes.push({ ok: false, error: (error as Error).message });
        }
      }
    };
    await Promise.all([worker(client), worker(legacy), worker(client), worker(legacy)]);
    expect(killed).toBe(true);
    // Every request got an answer: a result, or an HTTP error from the balancer to retry.
    expect(outcomes).toHaveLength(240);
    for (const outcome of outcomes) {
      if (!outcome.ok)
        expect(outcome.error).toMatch(
          /HTTP 50[234]|50[234] (Bad Gateway|Service Unavailable|Gateway Time-out)|fetch failed|terminated|socket|ECONNRESET/i,
        );
    }
    // The last calls of each worker all went to the survivor.
    const tail = outcomes.slice(-20);
    expect(tail.every((o) => o.ok && o.pid === survivor.pid)).toBe(true);
    // Once the victim's lease is over, the survivor fails its task.
    const task = await until(
      survivor.url,
      running,
      ['failed', 'completed', 'cancelled'],
      { session: SESSION },
      15_000,
    );
    expect(task).toMatchObject({
      status: 'failed',
      statusMessage: INTERRUPTED,
      error: { message: INTERRUPTED },
    });
  }, 60_000);
});
