/**
 * `moor decisions …` and `moor --version` as people run them: the built
 * binary, its stdout, stderr and exit codes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_WORKSPACE, MOOR_BIN, REPO_ROOT } from '../helpers/paths.js';

function moor(...args: string[]) {
  const result = spawnSync(process.execPath, [MOOR_BIN, ...args], { encoding: 'utf8', cwd: os.tmpdir() });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('moor decisions', () => {
  it('--version prints the package version', () => {
    const version = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version;
    expect(moor('--version').stdout.trim()).toBe(version);
  });

  it('search, show, context and superseded answer like the tools', () => {
    const search = moor('decisions', 'search', 'sqlite', '-w', E2E_WORKSPACE);
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(
      /^Decisions 1-\d+ of \d+ matching "sqlite":\n- 0003 Use SQLite for storage \[accepted, 2026-02-01\]/,
    );

    const show = moor('decisions', 'show', 'ADR-3', '-w', E2E_WORKSPACE, '--json');
    expect(JSON.parse(show.stdout)).toMatchObject({ id: '0003', supersedes: ['0002'] });

    const context = moor('decisions', 'context', 'src/db/pool.ts', '-w', E2E_WORKSPACE);
    expect(context.stdout).toMatch(/src\/db\/pool\.ts:\n- 0003 Use SQLite for storage .* \(replaces 0002\)/);

    const superseded = moor('decisions', 'superseded', '-w', E2E_WORKSPACE);
    expect(superseded.stdout).toMatch(/1 supersession relations: 1 resolved/);
  });

  it('check exits 0 on a clean corpus and 1 with every problem (globs matching no file included) on a broken one', () => {
    const clean = moor('decisions', 'check', '-w', E2E_WORKSPACE);
    expect(clean).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^5 decisions, no problems \(3 governed paths checked/),
    });
    const mixed = path.join(REPO_ROOT, 'test/fixtures/corpora/mixed');
    const broken = moor('decisions', 'check', '-w', mixed, '--json');
    expect(broken.code).toBe(1);
    const report = JSON.parse(broken.stdout) as { findings: Array<{ kind: string }> };
    expect(report.findings.map((f) => f.kind)).toEqual(
      expect.arrayContaining(['unparseable', 'dangling', 'dead-glob']),
    );
  });

  it('a workspace without decision records says how to configure one, on stderr, exit 1', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'moor-empty-'));
    const result = moor('decisions', 'search', 'x', '-w', empty);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/No decision records found in .*--decisions DIR/);
  });

  it('a --decisions folder outside the workspace is refused, never read', () => {
    const result = moor('decisions', 'search', 'x', '-w', E2E_WORKSPACE, '-d', os.tmpdir());
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No decision records: .*outside/);
  });

  it('a missing workspace is a clear error', () => {
    const result = moor('decisions', 'search', 'x', '-w', '/nonexistent/moor-ws');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/moor: /);
  });
});

const MIXED = path.join(REPO_ROOT, 'test/fixtures/corpora/mixed');

/** The parts of a SARIF result the test reads. */
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: unknown; region?: unknown } }>;
}

describe('moor decisions check --format', () => {
  it('github prints one workflow annotation per finding, escaped, with file and line; exit 1', () => {
    const json = JSON.parse(moor('decisions', 'check', '-w', MIXED, '--json').stdout) as {
      findings: Array<{ path: string; line: number | null; kind: string; message: string }>;
    };
    const result = moor('decisions', 'check', '-w', MIXED, '--format', 'github');
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(json.findings.length);
    for (const line of lines)
      expect(line).toMatch(/^::(error|warning) file=[^,]+,line=\d+,title=moor%3A [a-z-]+::\S/);
    expect(lines).toContain(
      '::error file=docs/decisions/0010-empty.md,line=1,title=moor%3A unparseable::file is empty',
    );
    expect(lines).toContain(
      '::error file=docs/decisions/0015-dangling-supersession.md,line=4,title=moor%3A dangling::0015 supersedes ADR-0099, which does not exist',
    );
    expect(
      lines.some((l) =>
        l.startsWith(
          '::warning file=docs/decisions/0002-use-postgresql-for-storage.md,line=9,title=moor%3A dead-glob::',
        ),
      ),
    ).toBe(true);
  });

  it('github prints nothing and exits 0 on a clean corpus', () => {
    expect(moor('decisions', 'check', '-w', E2E_WORKSPACE, '--format', 'github')).toMatchObject({
      code: 0,
      stdout: '',
    });
  });

  it('sarif is a SARIF 2.1.0 log: one run, a rule per kind, a located result per finding', () => {
    const json = JSON.parse(moor('decisions', 'check', '-w', MIXED, '--json').stdout) as {
      findings: Array<{ path: string; line: number | null; kind: string; message: string }>;
    };
    const result = moor('decisions', 'check', '-w', MIXED, '--format', 'sarif');
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(log.runs).toHaveLength(1);
    const [run] = log.runs;
    expect(run.tool.driver.name).toBe('moor');
    expect(run.tool.driver.version).toMatch(/^\d+\.\d+\.\d+/);
    const ruleIds = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ruleIds).toEqual([...new Set(json.findings.map((f) => f.kind))].sort());
    for (const rule of run.tool.driver.rules) {
      expect(typeof rule.shortDescription.text).toBe('string');
      expect(['error', 'warning', 'note']).toContain(rule.defaultConfiguration.level);
    }
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe(`file://${MIXED}/`);
    expect(run.results).toHaveLength(json.findings.length);
    run.results.forEach((r: SarifResult, i: number) => {
      const finding = json.findings[i];
      expect(r.ruleId).toBe(finding?.kind);
      expect(ruleIds[r.ruleIndex]).toBe(r.ruleId);
      expect(['error', 'warning']).toContain(r.level);
      expect(r.message.text).toBe(finding?.message);
      const location = r.locations[0].physicalLocation;
      expect(location.artifactLocation).toEqual({
        uri: encodeURI(finding?.path ?? ''),
        uriBaseId: '%SRCROOT%',
      });
      expect(location.region).toEqual({ startLine: finding?.line });
    });
  });

  it('refuses an unknown format as a usage error', () => {
    const result = moor('decisions', 'check', '-w', E2E_WORKSPACE, '--format', 'xml');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Allowed choices are text, json, github, sarif/);
  });
});

describe('moor decisions context --staged / --since', () => {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'moor-git-')));
  const repo = path.join(dir, 'repo');
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      [
        '-c',
        'user.name=moor',
        '-c',
        'user.email=moor@example.invalid',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      },
    );
  cpSync(E2E_WORKSPACE, repo, { recursive: true });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  git('checkout', '-q', '-b', 'work');
  writeFileSync(path.join(repo, 'src/api/routes.ts'), 'changed on the branch\n');
  git('commit', '-q', '-am', 'branch change');
  writeFileSync(path.join(repo, 'src/db/pool.ts'), 'staged\n');
  git('add', 'src/db/pool.ts');
  writeFileSync(path.join(repo, 'src/api/cache/lru.ts'), 'unstaged edit\n');
  writeFileSync(path.join(repo, 'notes.txt'), 'untracked\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const files = (stdout: string) =>
    (JSON.parse(stdout) as { files: Array<{ file: string }> }).files.map((f) => f.file);

  it('--staged answers for the staged files only', () => {
    const result = moor('decisions', 'context', '--staged', '-w', repo, '--json');
    expect(result.code).toBe(0);
    expect(files(result.stdout)).toEqual(['src/db/pool.ts']);
    const text = moor('decisions', 'context', '--staged', '-w', repo);
    expect(text.stdout).toMatch(/^src\/db\/pool\.ts:\n- 0003 Use SQLite for storage/);
  });

  it('--since REF adds commits since the merge base, unstaged edits and untracked files', () => {
    const result = moor('decisions', 'context', '--since', 'main', '-w', repo, '--json');
    expect(result.code).toBe(0);
    expect(files(result.stdout)).toEqual([
      'notes.txt',
      'src/api/cache/lru.ts',
      'src/api/routes.ts',
      'src/db/pool.ts',
    ]);
  });

  it('nothing staged is a plain answer, exit 0', () => {
    const clean = path.join(dir, 'clean');
    cpSync(repo, clean, { recursive: true });
    execFileSync('git', ['reset', '-q'], { cwd: clean });
    expect(moor('decisions', 'context', '--staged', '-w', clean)).toMatchObject({
      code: 0,
      stdout: 'No files staged.\n',
    });
  });

  it('an unknown revision, an option-like revision, or no source at all are errors', () => {
    const unknown = moor('decisions', 'context', '--since', 'no-such-branch', '-w', repo);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^moor: git diff .*no-such-branch\.\.\.HEAD failed in /);
    const optionLike = moor('decisions', 'context', '--since=--output=/tmp/x', '-w', repo);
    expect(optionLike.code).toBe(2);
    expect(optionLike.stderr).toMatch(/--since needs a git revision/);
    const none = moor('decisions', 'context', '-w', repo);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/context needs file paths, --staged or --since REF/);
    const both = moor('decisions', 'context', 'src/db/pool.ts', '--staged', '-w', repo);
    expect(both.code).toBe(2);
  });

  it('outside a git repository it says git failed', () => {
    const plain = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'moor-nogit-')));
    cpSync(E2E_WORKSPACE, plain, { recursive: true });
    const result = moor('decisions', 'context', '--staged', '-w', plain);
    rmSync(plain, { recursive: true, force: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^moor: git rev-parse --is-inside-work-tree failed in .*: fatal: not a git repository/,
    );
  });
});
