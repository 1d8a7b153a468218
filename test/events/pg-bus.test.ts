/**
 * The PostgreSQL cluster bus on a real server: a message reaches the other
 * daemon and never its sender, a message too large for NOTIFY arrives
 * whole, and after the listener's backend is terminated the bus reconnects,
 * hears messages again and asks its subscribers to re-read what changed.
 * What is not a signed moor message (unsigned, signed with another key,
 * altered, a signed reference to an unsigned row, a replay) is dropped and
 * counted; a task-input's answers never appear on the channel. Plus the
 * in-memory hub the single daemon uses.
 */
import type pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type ClusterMessage, localBus, MemoryBusHub } from '../../src/events/bus.js';
import { signPayload } from '../../src/events/bus-seal.js';
import { NOTIFY_LIMIT_BYTES, PgBus, RESYNC_MARGIN_MS } from '../../src/events/pg-bus.js';
import { type ClusterKeys, clusterKeys, readClusterSecret } from '../../src/store/pg/cluster-secret.js';
import { migratePg } from '../../src/store/pg/migrate.js';
import { openPgPool } from '../../src/store/pg/pool.js';
import { dropSchemas, freshSchema, pgUrl } from '../helpers/pg.js';
import { until } from '../helpers/until.js';

const url = pgUrl();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(dropSchemas);

/** The next message a bus delivers, as a promise. */
function nextMessage(bus: PgBus): Promise<{ message: ClusterMessage; from: string }> {
  return new Promise((resolve) => {
    const unsubscribe = bus.subscribe((message, from) => {
      unsubscribe();
      resolve({ message, from });
    });
  });
}

describe.skipIf(url === null)('PgBus', () => {
  async function cluster(n: number): Promise<{ pool: pg.Pool; buses: PgBus[]; keys: ClusterKeys }> {
    const schema = freshSchema();
    const connect = { url: url ?? '', schema };
    const pool = await openPgPool(connect);
    cleanups.push(() => pool.end());
    await migratePg(pool);
    const keys = clusterKeys(await readClusterSecret(pool));
    const buses: PgBus[] = [];
    for (let i = 0; i < n; i++) {
      const bus = await PgBus.start({ daemonId: `daemon-${i}`, keys, connect, pool, reconnectDelayMs: 20 });
      cleanups.push(() => bus.close());
      buses.push(bus);
    }
    return { pool, buses, keys };
  }

  it('delivers to the other daemons, never back to the sender', async () => {
    const { buses } = await cluster(3);
    const [a, b, c] = buses as [PgBus, PgBus, PgBus];
    const own: ClusterMessage[] = [];
    a.subscribe((message) => own.push(message));
    const atB = nextMessage(b);
    const atC = nextMessage(c);
    const message: ClusterMessage = { kind: 'resource-updated', roomKey: '/repo', uri: 'decision://0001' };
    await a.publish(message);
    expect(await atB).toEqual({ message, from: 'daemon-0' });
    expect(await atC).toEqual({ message, from: 'daemon-0' });
    // A round trip from B proves A has had its chance to hear its own message.
    const backAtA = nextMessage(a);
    const key = 'session-key-0123456789';
    const changed: ClusterMessage = { kind: 'binding-changed', sessionTag: b.sessionTag(key) };
    await b.publish(changed);
    expect((await backAtA).message).toEqual(changed);
    expect(own).toEqual([changed]);
    // Every daemon of the cluster names a session alike, and not by its key.
    expect(a.sessionTag(key)).toBe(b.sessionTag(key));
    expect(a.sessionTag(key)).not.toContain('0123');
  });

  it('carries a message larger than NOTIFY allows through the payload table', async () => {
    const { buses, pool } = await cluster(2);
    const [a, b] = buses as [PgBus, PgBus];
    const responses = { answer: { action: 'accept', content: { text: 'x'.repeat(NOTIFY_LIMIT_BYTES * 2) } } };
    const atB = nextMessage(b);
    await a.publish({ kind: 'task-input', taskId: 't1', leaseOwner: 'daemon-1', responses });
    expect((await atB).message).toEqual({
      kind: 'task-input',
      taskId: 't1',
      leaseOwner: 'daemon-1',
      responses,
    });
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM bus_payloads');
    expect(rows[0].n).toBe(1);
  });

  it('reconnects after its backend is terminated, resyncs, and hears messages again', async () => {
    const { buses, pool } = await cluster(2);
    const [a, b] = buses as [PgBus, PgBus];
    const firstPid = b.listenerPid;
    expect(firstPid).toBeTypeOf('number');
    const resynced = new Promise<number>((resolve) => b.subscribe(() => {}, { resync: resolve }));
    const before = Date.now();
    await pool.query('SELECT pg_terminate_backend($1)', [firstPid]);
    const since = await resynced;
    expect(since).toBeGreaterThanOrEqual(before - RESYNC_MARGIN_MS - 1);
    expect(since).toBeLessThanOrEqual(Date.now() - RESYNC_MARGIN_MS);
    expect(b.listenerPid).not.toBe(firstPid);
    const atB = nextMessage(b);
    await a.publish({ kind: 'task-status', taskId: 't9' });
    expect((await atB).message).toEqual({ kind: 'task-status', taskId: 't9' });
  });
  it('drops payloads that are not moor messages, signed or not, counts them, logs once a minute, and still relays', async () => {
    const { buses, pool, keys } = await cluster(2);
    const [a, b] = buses as [PgBus, PgBus];
    const logged: Array<Record<string, unknown> | undefined> = [];
    const errors: unknown[] = [];
    const onRejection = (error: unknown) => errors.push(error);
    process.on('unhandledRejection', onRejection);
    cleanups.push(async () => void process.off('unhandledRejection', onRejection));
    const watched = await PgBus.start({
      daemonId: 'daemon-watched',
      connect: { url: url ?? '', schema: (await pool.query('SELECT current_schema() AS s')).rows[0].s },
      pool,
      keys,
      log: (_level, message, fields) => {
        if (message === 'event bus dropped messages') logged.push(fields);
      },
    });
    cleanups.push(() => watched.close());
    const foreign = [
      'null',
      'garbage{',
      '42',
      '"text"',
      '[]',
      '{}',
      '{"from":7,"message":{"kind":"task-status","taskId":"t"}}',
      '{"from":"x"}',
      '{"from":"x","message":null}',
      '{"from":"x","message":{"kind":"task-cancel","taskId":"t"}}',
      '{"from":"x","message":{"kind":"nope"}}',
      '{"from":"x","message":{"kind":"list-changed","roomKey":"/r","list":"bogus"}}',
      '{"from":"x","ref":"1; DROP TABLE x"}',
    ];
    // Each sent as it is and signed: the shape is checked even on a payload that verifies.
    const payloads = [...foreign, ...foreign.map((payload) => signPayload(keys.bus, payload))];
    const heard: ClusterMessage[] = [];
    watched.subscribe((message) => heard.push(message));
    for (const payload of payloads) await pool.query('SELECT pg_notify($1, $2)', [a.channel, payload]);
    const real = nextMessage(watched);
    const atB = nextMessage(b);
    await a.publish({ kind: 'task-status', taskId: 'real' });
    expect((await real).message).toEqual({ kind: 'task-status', taskId: 'real' });
    expect((await atB).message).toEqual({ kind: 'task-status', taskId: 'real' });
    expect(heard).toEqual([{ kind: 'task-status', taskId: 'real' }]);
    expect(watched.droppedMessages).toBe(payloads.length);
    expect(logged).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('drops a well-formed message whose signature is missing, wrong or made with another key', async () => {
    const { buses, pool, keys } = await cluster(2);
    const [a, b] = buses as [PgBus, PgBus];
    const heard: ClusterMessage[] = [];
    b.subscribe((message) => heard.push(message));
    const cancel = JSON.stringify({
      from: 'daemon-0',
      seq: 1,
      message: { kind: 'task-cancel', taskId: 't1', leaseOwner: 'daemon-1' },
    });
    const signed = signPayload(keys.bus, cancel);
    const otherKey = clusterKeys(Buffer.alloc(32, 7)).bus;
    // A large message's row is checked too: a signed reference to a row nobody signed is dropped.
    const { rows } = await pool.query<{ id: string }>(
      'INSERT INTO bus_payloads (created_at, body) VALUES ($1, $2) RETURNING id',
      [Date.now(), cancel],
    );
    const forged = [
      cancel,
      `${'A'.repeat(43)}.${cancel}`,
      signPayload(otherKey, cancel),
      `${signed.slice(0, 44)}${cancel.replace('t1', 't2')}`,
      signed.slice(1),
      signPayload(keys.sessionTag, cancel),
      signPayload(keys.bus, JSON.stringify({ from: 'daemon-0', seq: 2, ref: rows[0]?.id })),
    ];
    for (const payload of forged) await pool.query('SELECT pg_notify($1, $2)', [a.channel, payload]);
    // The reference is dropped once its row was read: after a query of its own, in no fixed order.
    await until(() => b.droppedMessages === forged.length);
    const real = nextMessage(b);
    await a.publish({ kind: 'task-status', taskId: 'after' });
    expect((await real).message).toEqual({ kind: 'task-status', taskId: 'after' });
    expect(heard).toEqual([{ kind: 'task-status', taskId: 'after' }]);
    expect(b.droppedMessages).toBe(forged.length);
  });

  it('acts on a signed message once: the same payload sent again is dropped', async () => {
    const { buses, pool } = await cluster(2);
    const [a, b] = buses as [PgBus, PgBus];
    const listener = await pool.connect();
    cleanups.push(async () => listener.release());
    const onChannel: string[] = [];
    listener.on('notification', (n) => onChannel.push(n.payload ?? ''));
    await listener.query(`LISTEN "${a.channel}"`);
    const heard: ClusterMessage[] = [];
    b.subscribe((message) => heard.push(message));
    const first = nextMessage(b);
    await a.publish({ kind: 'list-changed', roomKey: '/repo', list: 'tools' });
    await first;
    await until(() => onChannel.length === 1);
    for (let i = 0; i < 3; i++) await pool.query('SELECT pg_notify($1, $2)', [a.channel, onChannel[0]]);
    await until(() => b.droppedMessages === 3);
    const next = nextMessage(b);
    await a.publish({ kind: 'task-status', taskId: 'after' });
    expect((await next).message).toEqual({ kind: 'task-status', taskId: 'after' });
    expect(heard).toEqual([
      { kind: 'list-changed', roomKey: '/repo', list: 'tools' },
      { kind: 'task-status', taskId: 'after' },
    ]);
  });

  it('never puts a task-input’s answers on the channel: they travel through the payload table', async () => {
    const { buses, pool } = await cluster(2);
    const [a, b] = buses as [PgBus, PgBus];
    const listener = await pool.connect();
    cleanups.push(async () => listener.release());
    const onChannel: string[] = [];
    listener.on('notification', (n) => onChannel.push(n.payload ?? ''));
    await listener.query(`LISTEN "${a.channel}"`);
    const responses = { secret: { action: 'accept', content: { password: 'hunter2-answer' } } };
    const atB = nextMessage(b);
    await a.publish({ kind: 'task-input', taskId: 't1', leaseOwner: 'daemon-1', responses });
    expect((await atB).message).toMatchObject({ kind: 'task-input', responses });
    expect(onChannel).toHaveLength(1);
    expect(onChannel[0]).not.toContain('hunter2');
    expect(onChannel[0]).toMatch(/"ref":"[0-9]+"/);
  });
});

describe('in-memory buses', () => {
  it('the single daemon bus reaches nobody; a hub joins in-process daemons, echoes left out', async () => {
    const alone = localBus('only');
    expect(alone.clustered).toBe(false);
    const heard: ClusterMessage[] = [];
    alone.subscribe((m) => heard.push(m));
    await alone.publish({ kind: 'task-status', taskId: 'x' });
    await Promise.resolve();
    expect(heard).toEqual([]);

    const hub = new MemoryBusHub();
    const a = hub.connect('a');
    const b = hub.connect('b');
    expect(a.clustered).toBe(true);
    const atA: string[] = [];
    a.subscribe((_m, from) => atA.push(from));
    const atB = new Promise<string>((resolve) => b.subscribe((_m, from) => resolve(from)));
    await a.publish({ kind: 'task-status', taskId: 'y' });
    expect(await atB).toBe('a');
    expect(atA).toEqual([]);
    await b.close();
    expect(a.clustered).toBe(false);
  });
});
