/**
 * `check --against REF` and `new` in a monorepo with a decision log per
 * package: numbers are compared log by log (billing's 0001 and auth's 0001
 * never collide), and `new --log` skips the numbers that log has on every
 * branch.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MOOR_BIN } from '../helpers/paths.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function moor(cwd: string, ...args: string[]) {
  const env = { ...process.env };
  delete env.MOOR_WORKSPACE;
  const result = spawnSync(process.execPath, [MOOR_BIN, ...args], { encoding: 'utf8', cwd, env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.org',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.org',
    },
  });
}

function record(root: string, rel: string, title: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `---\nstatus: accepted\ndate: 2026-01-01\n---\n# ${title}\n\nBody.\n`);
}

function commitAll(root: string, message: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
}

/** main: billing 0001, 0002-cache and auth 0001, 0002-rotate; feature (from before both 0002s): billing 0002-queue. */
function divergedMonorepo(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-logs-branches-')));
  dirs.push(root);
  git(root, 'init', '-q', '-b', 'main');
  record(root, 'packages/billing/docs/adr/0001-invoices.md', 'Invoices');
  record(root, 'services/auth/decisions/0001-tokens.md', 'Tokens');
  commitAll(root, 'one record per log');
  git(root, 'checkout', '-q', '-b', 'feature');
  record(root, 'packages/billing/docs/adr/0002-use-a-queue.md', 'Use a queue');
  commitAll(root, 'feature: a queue');
  git(root, 'checkout', '-q', 'main');
  record(root, 'packages/billing/docs/adr/0002-use-a-cache.md', 'Use a cache');
  record(root, 'services/auth/decisions/0002-rotate.md', 'Rotate');
  commitAll(root, 'main: a cache, a rotation');
  git(root, 'checkout', '-q', 'feature');
  return root;
}

describe('several decision logs across branches', () => {
  it('check --against compares each log with its own folder at REF', () => {
    const root = divergedMonorepo();
    const out = moor(root, 'decisions', 'check', '--against', 'main', '--json');
    expect(out.code).toBe(1);
    const findings = (
      JSON.parse(out.stdout) as { findings: Array<{ kind: string; path: string; message: string }> }
    ).findings;
    expect(findings.map((f) => [f.kind, f.path])).toEqual([
      ['number-collision', 'packages/billing/docs/adr/0002-use-a-queue.md'],
    ]);
    expect(findings[0]?.message).toContain(
      'which main already gives to packages/billing/docs/adr/0002-use-a-cache.md',
    );
  });

  it('new --log takes a number no branch uses in that log', () => {
    const root = divergedMonorepo();
    const made = moor(root, 'decisions', 'new', 'Expire sessions', '--log', 'auth', '--json');
    expect(made.code).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({
      id: 'auth:0003',
      path: 'services/auth/decisions/0003-expire-sessions.md',
    });
  });
});
