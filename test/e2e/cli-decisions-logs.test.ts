/**
 * `moor decisions …` on a monorepo with a decision log per package: the
 * built binary answers with namespaced ids, `--log` narrows a search, and
 * `new --log` numbers and writes the record in that log.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';

const MONOREPO = path.join(REPO_ROOT, 'test/fixtures/corpora/monorepo');

function moor(...args: string[]) {
  const result = spawnSync(process.execPath, [MOOR_BIN, ...args], { encoding: 'utf8', cwd: os.tmpdir() });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'moor-cli-logs-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('moor decisions on several decision logs', () => {
  it('search covers every log; --log only one', () => {
    const all = moor('decisions', 'search', 'postgres', '-w', MONOREPO);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(
      /^Decisions 1-2 of 2 matching "postgres":\n- billing:0001 Store invoices in Postgres \[accepted, 2025-03-01\] packages\/billing\/docs\/adr\/0001-store-invoices-in-postgres\.md\n.*\n- auth:0001 Session tokens are opaque /,
    );
    const auth = moor('decisions', 'search', 'postgres', '--log', 'auth', '-w', MONOREPO, '--json');
    expect(JSON.parse(auth.stdout)).toMatchObject({ total: 1, hits: [{ id: 'auth:0001' }] });
    const unknown = moor('decisions', 'search', 'postgres', '--log', 'shipping', '-w', MONOREPO);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain(
      'log "shipping" is not one of this repository\'s decision logs: billing, auth.',
    );
  });

  it('show takes a namespaced id, context the nearest log', () => {
    const show = moor('decisions', 'show', 'billing:0002', '-w', MONOREPO, '--json');
    expect(JSON.parse(show.stdout)).toMatchObject({ id: 'billing:0002', amends: ['auth:0001'] });
    const context = moor('decisions', 'context', 'packages/billing/src/invoice.ts', '-w', MONOREPO);
    expect(context.stdout).toBe(
      'packages/billing/src/invoice.ts:\n- billing:0001 Store invoices in Postgres [accepted, 2025-03-01] packages/billing/docs/adr/0001-store-invoices-in-postgres.md via packages/billing/src/**\n',
    );
  });

  it('index goes log by log and shows the namespaced ids', () => {
    const index = moor('decisions', 'index', '-w', MONOREPO);
    expect(index.code).toBe(0);
    const rows = index.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('| Id | Title | Status | Date | Superseded by / amended by |');
    expect(rows.slice(2).map((r) => r.split(' | ')[0])).toEqual([
      '| billing:0001',
      '| billing:0002',
      '| auth:0001',
      '| auth:0002',
    ]);
  });

  it('new --log writes the next number of that log into its folder; without --log it asks for one', () => {
    const root = path.join(scratch, 'repo');
    cpSync(MONOREPO, root, { recursive: true });
    const refused = moor('decisions', 'new', 'Bill in euros', '-w', root);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'several decision logs (billing, auth): name the one for the new record',
    );
    const made = moor('decisions', 'new', 'Bill in euros', '--log', 'auth', '-w', root, '--json');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({
      created: true,
      id: 'auth:0003',
      path: 'services/auth/decisions/0003-bill-in-euros.md',
    });
    expect(existsSync(path.join(root, 'services/auth/decisions/0003-bill-in-euros.md'))).toBe(true);
  });
});
