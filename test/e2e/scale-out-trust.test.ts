/**
 * What a cluster trusts, on two built daemons sharing one PostgreSQL schema
 * behind HAProxy (scripts/cluster.mjs, with requests pinned to a daemon by a
 * header where a test needs it). A role with nothing but CONNECT listens on
 * moor's channel: it hears no session key and no client's answer, and reads
 * none of moor's tables; a task-cancel it forges (moor's shape, no valid
 * signature) is dropped and counted while the task keeps running, and a real
 * cancellation still travels. A 2026-07-28 input round answered by one
 * daemon is retried on the other, which completes it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no types
import { startCluster } from '../../scripts/cluster.mjs';
import { channelFor } from '../../src/events/pg-bus.js';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { dropSchemas, freshSchema, outsiderUrl, pgUrl, schemaUrl } from '../helpers/pg.js';
import { authHeaders, rememberToken, rpc, until } from '../tasks/daemon-helpers.js';

interface ClusterDaemon {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
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

/** The balancer sends a request naming a daemon (moor0, moor1) in this header to that daemon. */
const PIN = 'x-moor-pin';
const SESSION = 'trust-session-7f3a9c1e5b2d4860';
const ANSWER = 'an-answer-only-the-daemons-may-read';
/** The input rounds' own session: the first test leaves SESSION's active workspace gone. */
const ROUND_SESSION = 'trust-session-rounds';

let cluster: Cluster;
let schema: string;
let outsider: pg.Client;
/** Every payload the outsider heard on the cluster's channel. */
const heard: string[] = [];

/** A payload's JSON, with or without a signature in front of it. */
function jsonOf(payload: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(payload.slice(payload.indexOf('{')));
  } catch {
    return undefined;
  }
}

/** Markers the outsider notified: each is a foreign payload every daemon drops and counts. */
let markers = 0;

/** Waits until the outsider has heard everything notified before now (its own marker comes after). */
async function heardAll(): Promise<void> {
  markers += 1;
  const marker = `flush-${markers}`;
  await outsider.query('SELECT pg_notify($1, $2)', [channelFor(schema), marker]);
  await untilAsync(async () => heard.includes(marker));
}

async function untilAsync(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); ) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The bus payloads a daemon dropped so far, from its /metrics. */
async function droppedOn(daemon: ClusterDaemon): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${daemon.port}/metrics`, {
    headers: authHeaders(daemon.url),
  });
  const match = /^moor_bus_dropped_messages_total (\d+)$/m.exec(await response.text());
  if (match === null) throw new Error('no moor_bus_dropped_messages_total in /metrics');
  return Number(match[1]);
}

async function startTask(url: string, name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await rpc(url, 'tools/call', { name, arguments: args }, { session: SESSION });
  expect(answer.error).toBeUndefined();
  return (answer.result as { taskId: string }).taskId;
}

/** A 2026-07-28 tools/call through the balancer, pinned to daemon `pin`; says which daemon answered. */
async function callPinned(
  pin: string,
  params: Record<string, unknown>,
): Promise<{ servedBy: string | null; result?: Record<string, unknown>; error?: { code: number } }> {
  const response = await fetch(cluster.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...authHeaders(cluster.url),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': params.name as string,
      'moor-session': ROUND_SESSION,
      [PIN]: pin,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'trust-e2e', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? JSON.parse(text) : JSON.parse(text.split('\ndata: ').pop() ?? '{}');
  return { servedBy: response.headers.get('x-moor-served-by'), ...json };
}

beforeAll(async () => {
  if (server === null) return;
  schema = freshSchema();
  cluster = await startCluster({
    daemons: 2,
    store: schemaUrl(server, schema),
    extra: ['--pack', 'tasks-conformance', '-w', E2E_WORKSPACE, '--task-lease-ms', '60000'],
    env: { MOOR_TEST_PACK: '1' },
    pinHeader: PIN,
  });
  for (const url of [cluster.url, ...cluster.daemons.map((d) => d.url)]) rememberToken(url, cluster.token);
  outsider = new pg.Client({ connectionString: outsiderUrl(server) });
  await outsider.connect().catch((error: Error) => {
    throw new Error(
      `the role moor_outsider (scripts/pg-cluster.sh creates it) cannot connect: ${error.message}`,
    );
  });
  outsider.on('notification', (n) => heard.push(n.payload ?? ''));
  await outsider.query(`LISTEN "${channelFor(schema)}"`);
}, 60_000);

afterAll(async () => {
  await outsider?.end().catch(() => {});
  await cluster?.stop();
  await dropSchemas();
});

describe.skipIf(server === null)('a cluster and another role on its database', () => {
  it('an outsider listening hears no session key and no client’s answer, and reads none of moor’s tables', async () => {
    const [a, b] = cluster.daemons as [ClusterDaemon, ClusterDaemon];
    // A session's binding changes on A (announced to B), its task on A is answered and cancelled through B.
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-trust-ws-'));
    fs.mkdirSync(path.join(other, 'docs/decisions'), { recursive: true });
    const connected = await rpc(
      a.url,
      'tools/call',
      { name: 'connect_workspace', arguments: { path: fs.realpathSync(other) } },
      { session: SESSION },
    );
    expect(connected.result?.isError).toBeFalsy();
    const asking = await startTask(a.url, 'multi_input', {});
    const waiting = await until(b.url, asking, ['input_required'], { session: SESSION });
    const inputResponses = Object.fromEntries(
      Object.keys(waiting.inputRequests as object).map((key) => [
        key,
        { action: 'accept', content: { name: ANSWER } },
      ]),
    );
    await rpc(b.url, 'tasks/update', { taskId: asking, inputResponses }, { session: SESSION });
    const answered = await until(a.url, asking, ['completed'], { session: SESSION });
    expect(JSON.stringify(answered.result)).toContain(`Got ${ANSWER} and ${ANSWER}.`);
    const slow = await startTask(a.url, 'slow_compute', { seconds: 60 });
    await until(b.url, slow, ['working'], { session: SESSION });
    await rpc(b.url, 'tasks/cancel', { taskId: slow }, { session: SESSION });
    await until(a.url, slow, ['cancelled'], { session: SESSION });
    await heardAll();

    const kinds = heard.map((payload) => (jsonOf(payload)?.message as { kind?: string } | undefined)?.kind);
    expect(kinds).toContain('binding-changed');
    expect(kinds).toContain('task-cancel');
    for (const payload of heard) {
      expect(payload).not.toContain(SESSION);
      expect(payload).not.toContain(SESSION.slice(0, 16));
      expect(payload).not.toContain(ANSWER);
    }
    for (const table of ['cluster_secret', 'bus_payloads', 'sessions', 'tasks'])
      await expect(outsider.query(`SELECT * FROM ${schema}.${table}`)).rejects.toMatchObject({
        code: '42501',
      });
    fs.rmSync(other, { recursive: true, force: true });
  }, 60_000);

  it('a task-cancel the outsider forges is dropped and counted; the task keeps running; a real one still travels', async () => {
    const [a, b] = cluster.daemons as [ClusterDaemon, ClusterDaemon];
    const taskId = await startTask(a.url, 'slow_compute', { seconds: 60 });
    await until(a.url, taskId, ['working'], { session: SESSION });
    await heardAll();
    // What a listener learns of the daemon running it: its id, on every message it sends.
    const runner = heard.map((p) => jsonOf(p)?.from).find((from) => `${from}`.startsWith(`${a.pid}-`));
    expect(runner).toBeTypeOf('string');
    // A counts the markers as it drops them: once it has them all, the next drop is the forgery's.
    await untilAsync(async () => (await droppedOn(a)) === markers);
    const before = markers;
    const forged = { from: 'forger', message: { kind: 'task-cancel', taskId, leaseOwner: runner } };
    await outsider.query('SELECT pg_notify($1, $2)', [channelFor(schema), JSON.stringify(forged)]);
    const statusOnA = async () =>
      (await until(a.url, taskId, ['working', 'cancelled', 'failed'], { session: SESSION })).status;
    await untilAsync(async () => (await droppedOn(a)) > before || (await statusOnA()) !== 'working');
    expect(await droppedOn(a)).toBe(before + 1);
    expect(await statusOnA()).toBe('working');

    // The daemons' own cancellation, signed, reaches the work on A at once (the lease is 60 s).
    await rpc(b.url, 'tasks/cancel', { taskId }, { session: SESSION });
    const cancelled = await until(a.url, taskId, ['cancelled', 'failed', 'completed'], { session: SESSION });
    expect(cancelled).toMatchObject({ status: 'cancelled', statusMessage: 'Cancelled.' });
  }, 60_000);

  it('an input round answered by one daemon is retried on the other and completes there', async () => {
    for (const [first, second] of [
      ['moor0', 'moor1'],
      ['moor1', 'moor0'],
    ] as const) {
      const filename = `${first}.txt`;
      const round = await callPinned(first, { name: 'confirm_delete', arguments: { filename } });
      expect(round.servedBy).toBe(first);
      expect(round.error).toBeUndefined();
      expect(round.result).toMatchObject({ resultType: 'input_required' });
      expect(Object.keys(round.result?.inputRequests as object)).toEqual(['confirm']);
      const requestState = round.result?.requestState;
      expect(requestState).toBeTypeOf('string');
      const retry = await callPinned(second, {
        name: 'confirm_delete',
        arguments: { filename },
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState,
      });
      expect(retry.servedBy).toBe(second);
      expect(retry.error).toBeUndefined();
      expect(retry.result).toMatchObject({ content: [{ type: 'text', text: `Deleted ${filename}.` }] });
    }
  }, 30_000);
});
