/**
 * PostgreSQL migrations on a real server: daemons starting together apply
 * each migration once (the advisory lock), a second start applies nothing,
 * a schema from a newer moor is refused, and a store URL's `schema`
 * parameter puts the tables there.
 */
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStores, parseStoreUrl } from '../../../src/store/open.js';
import { migratePg } from '../../../src/store/pg/migrate.js';
import { PG_MIGRATIONS } from '../../../src/store/pg/migrations/index.js';
import { openPgPool } from '../../../src/store/pg/pool.js';
import { dropSchemas, freshSchema, pgUrl, schemaUrl } from '../../helpers/pg.js';

afterAll(dropSchemas);

const url = pgUrl();

describe.skipIf(url === null)('PostgreSQL migrations', () => {
  const server = url ?? '';

  it('applies each migration once when eight migrators start at the same time', async () => {
    const schema = freshSchema();
    const pools = await Promise.all(
      Array.from({ length: 8 }, () => openPgPool({ url: server, schema, max: 2 })),
    );
    try {
      const ran = await Promise.all(pools.map((pool) => migratePg(pool)));
      const versions = PG_MIGRATIONS.map((m) => m.version);
      expect(ran.flat().sort()).toEqual(versions);
      expect(ran.filter((r) => r.length > 0)).toHaveLength(1);
      const [first, second] = pools as [pg.Pool, pg.Pool];
      const { rows } = await first.query('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(rows).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      expect(await migratePg(second)).toEqual([]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('refuses a schema written by a newer moor with STORE_SCHEMA_NEWER', async () => {
    const schema = freshSchema();
    const pool = await openPgPool({ url: server, schema });
    try {
      await migratePg(pool);
      await pool.query("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')");
      await expect(migratePg(pool)).rejects.toMatchObject({
        code: 'STORE_SCHEMA_NEWER',
        message: expect.stringMatching(/999.*newer moor/),
      });
    } finally {
      await pool.end();
    }
  });

  it('opens the stores in the schema a store URL names', async () => {
    const schema = freshSchema();
    const location = parseStoreUrl(schemaUrl(server, schema), '/unused/moor.db');
    expect(location).toMatchObject({ kind: 'postgres', connect: { schema } });
    const stores = await openStores(location);
    try {
      expect(stores.kind).toBe('postgres');
      const pool = stores.postgres?.pool;
      if (pool === undefined) throw new Error('a PostgreSQL store has a pool');
      const { rows } = await pool.query(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
        [schema],
      );
      expect(rows.map((r) => r.table_name)).toEqual([
        'bus_payloads',
        'cluster_secret',
        'schema_migrations',
        'session_bindings',
        'sessions',
        'tasks',
      ]);
    } finally {
      await stores.close();
    }
  });

  it('reports an unreachable server as STORE_UNAVAILABLE', async () => {
    await expect(openPgPool({ url: 'postgres://moor:moor@127.0.0.1:1/moor' })).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
  });
});

describe('store URLs', () => {
  it('default to the SQLite file, accept sqlite: paths, refuse anything else as USAGE', () => {
    expect(parseStoreUrl(undefined, '/s/moor.db')).toEqual({ kind: 'sqlite', file: '/s/moor.db' });
    expect(parseStoreUrl('', '/s/moor.db')).toEqual({ kind: 'sqlite', file: '/s/moor.db' });
    expect(parseStoreUrl('sqlite:/x/y.db', '/s')).toEqual({ kind: 'sqlite', file: '/x/y.db' });
    expect(parseStoreUrl('postgresql://u:p@h:5/db', '/s')).toMatchObject({
      kind: 'postgres',
      connect: { url: 'postgresql://u:p@h:5/db', schema: undefined },
    });
    expect(() => parseStoreUrl('mysql://u:secret@h/db', '/s')).toThrow(
      expect.objectContaining({ code: 'USAGE', message: expect.not.stringContaining('secret') }),
    );
    expect(() => parseStoreUrl('relative.db', '/s')).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});
