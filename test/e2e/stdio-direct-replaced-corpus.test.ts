/**
 * `moor stdio --direct` keeps serving the decisions folder after it was
 * replaced under it (moved away and copied back, or deleted and re-created):
 * a record added afterwards is found, a deleted one is gone.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE } from '../helpers/paths.js';
import { connectStdio } from '../helpers/sdk-client.js';
import { until } from '../helpers/until.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

const record = (n: number, title: string, body: string) =>
  `# ${n}. ${title}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n`;

async function start(): Promise<{ client: Client; decisions: string }> {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'moor-replaced-')));
  const root = path.join(dir, 'repo');
  cpSync(E2E_WORKSPACE, root, { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const client = await connectStdio('auto', ['stdio', '--direct', '--workspace', root]);
  cleanups.push(() => client.close());
  return { client, decisions: path.join(root, 'docs/decisions') };
}

async function searchIds(client: Client, query: string): Promise<string[]> {
  const result = await client.callTool({ name: 'search_decisions', arguments: { query } });
  const hits = (result.structuredContent as { hits?: Array<{ id: string }> }).hits ?? [];
  return hits.map((h) => h.id);
}

/** Calls search until its answer satisfies `check` (the refresh is asynchronous to the client). */
async function searchUntil(client: Client, query: string, check: (ids: string[]) => boolean): Promise<void> {
  let ids: string[] = [];
  let pending = false;
  await until(() => {
    if (check(ids)) return true;
    if (!pending) {
      pending = true;
      void searchIds(client, query).then((found) => {
        ids = found;
        pending = false;
      });
    }
    return false;
  }, 10_000);
}

describe('moor stdio --direct with a replaced decisions folder', () => {
  it('mv away + cp back: a new record is found, a deleted one is gone', async () => {
    const { client, decisions } = await start();
    const victim = (await searchIds(client, 'storage'))[0];
    expect(victim).toBeDefined();
    renameSync(decisions, `${decisions}.old`);
    cpSync(`${decisions}.old`, decisions, { recursive: true });
    for (const name of readdirSync(decisions))
      if (name.startsWith(String(victim))) rmSync(path.join(decisions, name));
    writeFileSync(path.join(decisions, '0090-adopt-zanzibar.md'), record(90, 'Adopt Zanzibar', 'Tuples.'));
    await searchUntil(client, 'zanzibar', (ids) => ids.includes('0090'));
    expect(await searchIds(client, 'storage')).not.toContain(victim);
  });

  it('rm -rf + re-create: only the new folder is served', async () => {
    const { client, decisions } = await start();
    expect((await searchIds(client, 'storage')).length).toBeGreaterThan(0);
    rmSync(decisions, { recursive: true, force: true });
    mkdirSync(decisions);
    writeFileSync(path.join(decisions, '0091-adopt-openfga.md'), record(91, 'Adopt OpenFGA', 'Tuples.'));
    await searchUntil(client, 'openfga', (ids) => ids.includes('0091'));
    expect(await searchIds(client, 'storage')).toEqual([]);
  });
});
