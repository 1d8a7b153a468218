/**
 * PostgreSQL unreachable, as the stores' callers see it: every query fails
 * with STORE_UNAVAILABLE, retryable, `executed: false`, in moor's words (no
 * driver text, host or port), a session save's transaction on its own
 * connection too; a connection dropped while checked out crashes nothing;
 * once the server answers again, so do they. The outage is a relay of this
 * test's own that it cuts.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isMoorError } from '../../../src/errors.js';
import { migratePg } from '../../../src/store/pg/migrate.js';
import { PgSessionStore } from '../../../src/store/pg/pg-session-store.js';
import { PgTaskStore } from '../../../src/store/pg/pg-task-store.js';
import { openPgPool } from '../../../src/store/pg/pool.js';
import { dropSchemas, freshSchema, pgUrl } from '../../helpers/pg.js';
import { cuttableLink, viaLink } from '../../helpers/tcp-cut.js';
import { newTaskBase, sessionRecord } from '../records.js';

const url = pgUrl();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(dropSchemas);

describe.skipIf(url === null)('PostgreSQL outage', () => {
  it('answers STORE_UNAVAILABLE without driver text while cut, and works again once restored', async () => {
    const target = new URL(url ?? '');
    const link = await cuttableLink(target.hostname, Number(target.port || 5432));
    cleanups.push(() => link.close());
    const pool = await openPgPool({ url: viaLink(url ?? '', link), schema: freshSchema() });
    cleanups.push(() => pool.end().catch(() => {}));
    await migratePg(pool);
    const store = new PgTaskStore(pool);
    const base = newTaskBase(1_000_000);
    await store.create({ ...base, id: 'before', createdAt: 1 });

    link.cut();
    const failures = await Promise.all([
      store.create({ ...base, id: 'during', createdAt: 2 }).catch((e: unknown) => e),
      store.get('before', 2).catch((e: unknown) => e),
    ]);
    for (const failure of failures) {
      expect(isMoorError(failure)).toBe(true);
      const error = failure as import('../../../src/errors.js').MoorError;
      expect(error.code).toBe('STORE_UNAVAILABLE');
      expect(error.spec.retryable).toBe(true);
      expect(error.toJsonRpc()).toEqual({
        code: -32051,
        message:
          'The task and session store (PostgreSQL) cannot be reached; nothing was done. Try again shortly.',
        data: { executed: false },
      });
      expect(error.message).not.toContain(String(link.port));
    }

    link.restore();
    expect((await store.get('before', 3))?.id).toBe('before');
    expect(await store.get('during', 3)).toBeUndefined();
  });

  it('survives the server dropping a connection that is checked out, between two queries of a transaction', async () => {
    const target = new URL(url ?? '');
    const link = await cuttableLink(target.hostname, Number(target.port || 5432));
    cleanups.push(() => link.close());
    const pool = await openPgPool({ url: viaLink(url ?? '', link), schema: freshSchema() });
    cleanups.push(() => pool.end().catch(() => {}));
    const client = await pool.connect();
    await client.query('BEGIN');
    // Without a listener of moor's, the driver's 'error' event for the drop is an uncaught exception.
    const uncaught: unknown[] = [];
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    let record: (error: unknown) => void = () => {};
    const dropped = new Promise<void>((resolve) => {
      client.once('end', resolve);
      record = (error) => {
        uncaught.push(error);
        resolve();
      };
    });
    process.on('uncaughtException', record);
    try {
      link.cut();
      await dropped;
    } finally {
      process.removeListener('uncaughtException', record);
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
    const failed = await client.query('COMMIT').catch((e: unknown) => e);
    client.release(failed as Error);
    expect(uncaught).toEqual([]);
    expect(failed).toBeInstanceOf(Error);
    link.restore();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('answers a session save cut off on its own connection, or unable to get one, as STORE_UNAVAILABLE', async () => {
    const target = new URL(url ?? '');
    const link = await cuttableLink(target.hostname, Number(target.port || 5432));
    cleanups.push(() => link.close());
    const pool = await openPgPool({ url: viaLink(url ?? '', link), schema: freshSchema() });
    cleanups.push(() => pool.end().catch(() => {}));
    await migratePg(pool);
    const sessions = new PgSessionStore(pool);
    const expected = {
      code: -32051,
      message:
        'The task and session store (PostgreSQL) cannot be reached; nothing was done. Try again shortly.',
      data: { executed: false },
    };
    // Cut once the save holds its connection: the transaction's queries fail on it.
    const cutOnAcquire = () => link.cut();
    pool.once('acquire', cutOnAcquire);
    const midTransaction = await sessions.save(sessionRecord('s1')).catch((e: unknown) => e);
    expect(isMoorError(midTransaction) && midTransaction.toJsonRpc()).toEqual(expected);
    // Still cut: no connection to be had.
    const noConnection = await sessions.save(sessionRecord('s1')).catch((e: unknown) => e);
    expect(isMoorError(noConnection) && noConnection.toJsonRpc()).toEqual(expected);

    link.restore();
    await sessions.save(sessionRecord('s1'));
    expect((await sessions.load('s1'))?.generation).toBe(3);
  });
});
