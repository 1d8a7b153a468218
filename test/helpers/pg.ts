/**
 * PostgreSQL for tests: the server CI starts ($MOOR_TEST_PG_URL), or a
 * throwaway cluster started here through scripts/pg-cluster.sh. Each test
 * gets a schema of its own (`test_<random>`), dropped when the file ends, so
 * that test files running at once never see each other's rows. In CI a
 * missing server fails the tests; elsewhere they are skipped, loudly.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { REPO_ROOT } from './paths.js';

let resolved: string | null | undefined;

/** The server's URL, or null when there is none (never in CI: there it throws). */
export function pgUrl(): string | null {
  if (resolved !== undefined) return resolved;
  const fromEnv = process.env.MOOR_TEST_PG_URL;
  if (fromEnv !== undefined && fromEnv !== '') {
    resolved = fromEnv;
    return resolved;
  }
  try {
    resolved = execFileSync('bash', [path.join(REPO_ROOT, 'scripts/pg-cluster.sh'), 'start'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    if (process.env.CI === 'true')
      throw new Error(`PostgreSQL is required in CI: ${(error as Error).message}`);
    console.warn(`PostgreSQL tests skipped: no server (${(error as Error).message.split('\n')[0]})`);
    resolved = null;
  }
  return resolved;
}

const created: string[] = [];

/** A fresh schema name; dropped by dropSchemas(). */
export function freshSchema(): string {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  created.push(schema);
  return schema;
}

/** A store URL naming a fresh schema (`?schema=`), for daemons. */
export function schemaUrl(url: string, schema = freshSchema()): string {
  const parsed = new URL(url);
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
}

/** Drops every schema this file created (call in afterAll). */
export async function dropSchemas(): Promise<void> {
  const url = resolved;
  if (!url || created.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of created.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The same server as `url`, as the role scripts/pg-cluster.sh creates with no privilege but
 * CONNECT (`moor_outsider`): anyone else allowed on the database, for tests of what they can do.
 */
export function outsiderUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = 'moor_outsider';
  parsed.password = 'outsider';
  parsed.searchParams.delete('schema');
  return parsed.toString();
}
