/**
 * `moor decisions check --against REF` and `moor decisions new` over real git
 * repositories built in temp folders: a record number this branch adds that
 * REF gives to another record is a finding (text, SARIF, GitHub), and `new`
 * never takes a number REF or any local branch already holds.
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

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.org',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.org',
    },
  });
}

function record(root: string, name: string, title: string): void {
  const file = path.join(root, 'docs/decisions', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `---\nstatus: accepted\ndate: 2026-01-01\n---\n# ${title}\n\nBody.\n`);
}

function commitAll(root: string, message: string): void {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
}

/** main: 0001, 0002, then 0003-cache; feature (from before 0003): 0003-queue. The work tree is on feature. */
function divergedRepository(): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-branches-')));
  dirs.push(root);
  git(root, 'init', '-q', '-b', 'main');
  record(root, '0001-first.md', 'First');
  record(root, '0002-second.md', 'Second');
  commitAll(root, 'two records');
  git(root, 'checkout', '-q', '-b', 'feature');
  record(root, '0003-use-a-queue.md', 'Use a queue');
  commitAll(root, 'feature: a queue');
  git(root, 'checkout', '-q', 'main');
  record(root, '0003-use-a-cache.md', 'Use a cache');
  commitAll(root, 'main: a cache');
  git(root, 'checkout', '-q', 'feature');
  return root;
}

describe('moor decisions check --against', () => {
  it('reports a record this branch adds under a number REF gives to another record, with both files', () => {
    const root = divergedRepository();
    const text = moor(root, 'decisions', 'check', '--against', 'main');
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      '- docs/decisions/0003-use-a-queue.md: number-collision: docs/decisions/0003-use-a-queue.md takes number 3, which main already gives to docs/decisions/0003-use-a-cache.md',
    );
    // Without --against nothing is wrong: the branch alone has one record per number.
    expect(moor(root, 'decisions', 'check')).toMatchObject({ code: 0 });

    const sarif = moor(root, 'decisions', 'check', '--against', 'main', '--format', 'sarif');
    const run = JSON.parse(sarif.stdout).runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['number-collision']);
    expect(run.results[0]).toMatchObject({
      ruleId: 'number-collision',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'docs/decisions/0003-use-a-queue.md' } } }],
    });
    expect(run.results[0].message.text).toContain('docs/decisions/0003-use-a-cache.md');

    const github = moor(root, 'decisions', 'check', '--against', 'main', '--format', 'github');
    expect(github.stdout).toMatch(
      /^::error file=docs\/decisions\/0003-use-a-queue\.md,title=moor%3A number-collision::.*0003-use-a-cache\.md; renumber it.*\n$/,
    );
  });

  it('a record REF already has (the same path) is no collision', () => {
    const root = divergedRepository();
    git(root, 'checkout', '-q', 'main');
    expect(moor(root, 'decisions', 'check', '--against', 'feature~1')).toMatchObject({ code: 0 });
  });

  it('a revision the repository lacks is one clear line on stderr, exit 2', () => {
    const root = divergedRepository();
    const result = moor(root, 'decisions', 'check', '--against', 'origin/main');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `moor: no git revision "origin/main" in ${root}: fetch it first (git fetch origin) or name a branch, tag or commit that exists\n`,
    );
    expect(moor(root, 'decisions', 'new', 'X', '--against', 'origin/main').code).toBe(2);
    expect(fs.readdirSync(path.join(root, 'docs/decisions')).sort()).toEqual([
      '0001-first.md',
      '0002-second.md',
      '0003-use-a-queue.md',
    ]);
  });
});

describe('moor decisions new', () => {
  it('takes a number above every local branch and REF, in the format and padding the records use', () => {
    const root = divergedRepository();
    // Another local branch has gone further still: 0004 and 0005.
    git(root, 'checkout', '-q', '-b', 'spike', 'main');
    record(root, '0004-spike-a.md', 'Spike A');
    record(root, '0005-spike-b.md', 'Spike B');
    commitAll(root, 'spike');
    git(root, 'checkout', '-q', 'feature');
    const result = moor(root, 'decisions', 'new', 'Use Postgres for reports', '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      created: true,
      id: '0006',
      path: 'docs/decisions/0006-use-postgres-for-reports.md',
      format: 'madr',
    });
    const written = fs.readFileSync(
      path.join(root, 'docs/decisions/0006-use-postgres-for-reports.md'),
      'utf8',
    );
    expect(written).toMatch(
      /^---\nstatus: proposed\ndate: \d{4}-\d{2}-\d{2}\n---\n# Use Postgres for reports\n/,
    );
    expect(written).toContain('To be written.');
  });

  it('--against REF counts a remote-tracking revision too, and says why it skipped numbers', () => {
    const root = divergedRepository();
    // A tag stands in for origin/main: a revision that is no local branch.
    git(root, 'checkout', '-q', '-b', 'tmp', 'main');
    record(root, '0009-far.md', 'Far');
    commitAll(root, 'far');
    git(root, 'tag', 'upstream');
    git(root, 'checkout', '-q', 'feature');
    git(root, 'branch', '-q', '-D', 'tmp');
    const result = moor(root, 'decisions', 'new', 'Next one', '--against', 'upstream');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      'Wrote decision 0010 "Next one" (proposed, madr) to docs/decisions/0010-next-one.md (upstream already uses numbers up to 9).\n',
    );
  });

  it('refuses an empty title as a usage error, writing nothing', () => {
    const root = divergedRepository();
    const result = moor(root, 'decisions', 'new', '   ');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('moor: the title must not be empty\n');
    expect(fs.readdirSync(path.join(root, 'docs/decisions'))).toHaveLength(3);
  });
});

describe('moor decisions context --format markdown', () => {
  it('--staged: says which records the change adds and which it edits, with no decision governing other files', () => {
    const root = divergedRepository();
    record(root, '0003-use-a-queue.md', 'Use a queue, durably');
    record(root, '0004-use-retries.md', 'Use retries');
    fs.writeFileSync(path.join(root, 'notes.txt'), 'x\n');
    git(root, 'add', '-A');
    const result = moor(root, 'decisions', 'context', '--staged', '--format', 'markdown');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe(
      [
        '<!-- moor:decisions-context -->',
        '### Decisions this change touches (staged)',
        '',
        '3 of 3 changed files fall under no decision.',
        '',
        '**Decision records this change adds or edits**',
        '',
        '- edits [0003 Use a queue, durably](docs/decisions/0003-use-a-queue.md) (accepted)',
        '- adds [0004 Use retries](docs/decisions/0004-use-retries.md) (accepted)',
        '',
      ].join('\n'),
    );
  });

  it('is for changes only: with file paths it is a usage error', () => {
    const root = divergedRepository();
    const result = moor(root, 'decisions', 'context', 'src/a.ts', '--format', 'markdown');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'moor: --format markdown summarises a change: use it with --since REF or --staged\n',
    );
  });
});
