/**
 * The cluster's secret on a real server: daemons opening one schema at the
 * same moment agree on one secret (the first insert wins, the rest read it),
 * another schema gets its own, and each use has its own derived key.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../../../src/store/open.js';
import { dropSchemas, freshSchema, pgUrl } from '../../helpers/pg.js';

afterAll(dropSchemas);

const url = pgUrl();

describe.skipIf(url === null)('the cluster secret', () => {
  it('is one per schema, whichever daemon writes it first, and gives a distinct key per use', async () => {
    const schema = freshSchema();
    const open = (s: string) => openStores({ kind: 'postgres', connect: { url: url ?? '', schema: s } });
    const stores: Stores[] = await Promise.all(Array.from({ length: 6 }, () => open(schema)));
    const other = await open(freshSchema());
    try {
      const keys = stores.map((s) => s.postgres?.keys);
      for (const k of keys) expect(k).toEqual(keys[0]);
      const first = keys[0];
      if (first === undefined) throw new Error('a PostgreSQL store has keys');
      const pool = stores[0]?.postgres?.pool;
      if (pool === undefined) throw new Error('a PostgreSQL store has a pool');
      const { rows } = await pool.query('SELECT count(*)::int AS n FROM cluster_secret');
      expect(rows[0].n).toBe(1);
      expect(
        new Set([first.bus, first.sessionTag, first.requestState].map((b) => b.toString('hex'))).size,
      ).toBe(3);
      expect(other.postgres?.keys.bus.equals(first.bus)).toBe(false);
      // A daemon starting later reads the same row.
      const later = await open(schema);
      stores.push(later);
      expect(later.postgres?.keys).toEqual(first);
    } finally {
      for (const s of [...stores, other]) await s.close();
    }
  });
});
