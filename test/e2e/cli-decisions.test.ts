/**
 * `moor decisions …` and `moor --version` as people run them: the built
 * binary, its stdout, stderr and exit codes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
