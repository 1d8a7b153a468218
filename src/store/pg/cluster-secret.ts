/**
 * The secret a PostgreSQL cluster's daemons share, and the keys derived from
 * it. The store is where it lives because the store is what the daemons of a
 * cluster already share: a daemon on another host has no file in common with
 * this one, and whoever may read moor's tables can read and change every task
 * and session already, so the secret adds no new holder. The first daemon
 * writes 32 random bytes; ON CONFLICT DO NOTHING makes every later one (and
 * every one starting at the same moment) read that same row.
 *
 * Each use gets its own key (HKDF with a distinct label), so that a value
 * computed for one purpose is never valid for another: a bus message's MAC
 * is no session tag and no sealed input round.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import type pg from 'pg';

export interface ClusterKeys {
  /** Signs and verifies every message on the cluster bus. */
  readonly bus: Buffer;
  /** Names a session on the bus (a keyed hash of its key, never the key). */
  readonly sessionTag: Buffer;
  /** Seals 2026-07-28 input rounds (`requestState`), so any daemon can take the retry. */
  readonly requestState: Buffer;
}

const SECRET_BYTES = 32;

/** The cluster's secret: written once by whichever daemon comes first, read by all. */
export async function readClusterSecret(pool: pg.Pool): Promise<Buffer> {
  await pool.query('INSERT INTO cluster_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [
    randomBytes(SECRET_BYTES),
  ]);
  const { rows } = await pool.query<{ secret: Buffer }>('SELECT secret FROM cluster_secret WHERE id = 1');
  const secret = rows[0]?.secret;
  if (secret === undefined || secret.length < SECRET_BYTES) throw new Error('cluster secret missing');
  return secret;
}

function derive(secret: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), label, 32));
}

export function clusterKeys(secret: Buffer): ClusterKeys {
  return {
    bus: derive(secret, 'moor cluster bus v1'),
    sessionTag: derive(secret, 'moor session tag v1'),
    requestState: derive(secret, 'moor request state v1'),
  };
}
