import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MoorError } from '../../../../../src/errors.js';
import {
  CONVENTIONAL_CORPUS_DIRS,
  findCorpusDir,
  resolveWorkspaceRoot,
} from '../../../../../src/packs/decisions/corpus/find/discover.js';
import { FIXTURES, tempDir } from '../helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function temp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('resolveWorkspaceRoot', () => {
  it('prefers --workspace, then MOOR_WORKSPACE, then the nearest .git ancestor, then cwd', () => {
    const dir = temp();
    const repo = path.join(dir, 'repo');
    const deep = path.join(repo, 'a/b');
    const other = path.join(dir, 'other');
    mkdirSync(deep, { recursive: true });
    mkdirSync(path.join(repo, '.git'));
    mkdirSync(other);
    expect(
      resolveWorkspaceRoot({ workspace: '../../../other', env: { MOOR_WORKSPACE: repo }, cwd: deep }),
    ).toBe(other);
    expect(resolveWorkspaceRoot({ env: { MOOR_WORKSPACE: other }, cwd: deep })).toBe(other);
    expect(resolveWorkspaceRoot({ env: {}, cwd: deep })).toBe(repo);
  });

  it('accepts a .git file (worktrees, submodules) and realpaths the result', () => {
    const dir = temp();
    mkdirSync(path.join(dir, 'wt/sub'), { recursive: true });
    writeFileSync(path.join(dir, 'wt/.git'), 'gitdir: /elsewhere\n');
    symlinkSync(path.join(dir, 'wt'), path.join(dir, 'link'));
    expect(resolveWorkspaceRoot({ env: {}, cwd: path.join(dir, 'link/sub') })).toBe(path.join(dir, 'wt'));
  });

  it('falls back to cwd without any .git', () => {
    const dir = temp();
    // tmpdir has no .git above it on any sane machine; if it had, the answer would be that ancestor.
    const found = resolveWorkspaceRoot({ env: {}, cwd: dir });
    expect(found === dir || !found.startsWith(dir)).toBe(true);
  });

  it('throws for an explicit workspace that does not exist', () => {
    const dir = temp();
    const missing = () => resolveWorkspaceRoot({ workspace: 'missing', env: {}, cwd: dir });
    expect(missing).toThrow(MoorError);
    expect(missing).toThrow(expect.objectContaining({ code: 'WORKSPACE_INVALID' }));
    expect(() => resolveWorkspaceRoot({ env: { MOOR_WORKSPACE: path.join(dir, 'nope') }, cwd: dir })).toThrow(
      /does not exist/,
    );
  });
});

describe('findCorpusDir', () => {
  it('uses an explicit directory, and returns null when it is missing', () => {
    const dir = temp();
    mkdirSync(path.join(dir, 'records'));
    expect(findCorpusDir(dir, path.join(dir, 'records'))).toEqual({
      dir: path.join(dir, 'records'),
      source: 'flag',
    });
    expect(findCorpusDir(dir, path.join(dir, 'nope'))).toBeNull();
  });

  it('reads .adr-dir before the conventional folders', () => {
    const root = path.join(FIXTURES, 'adr-dir');
    expect(findCorpusDir(root)).toEqual({ dir: path.join(root, 'architecture/records'), source: 'adr-dir' });
  });

  it('falls through a .adr-dir naming a missing folder', () => {
    const dir = temp();
    writeFileSync(path.join(dir, '.adr-dir'), 'gone/away\n');
    mkdirSync(path.join(dir, 'decisions'));
    expect(findCorpusDir(dir)).toEqual({ dir: path.join(dir, 'decisions'), source: 'convention' });
  });

  it('tries the conventional folders in order', () => {
    const dir = temp();
    expect(findCorpusDir(dir)).toBeNull();
    mkdirSync(path.join(dir, 'adr'));
    expect(findCorpusDir(dir)?.dir).toBe(path.join(dir, 'adr'));
    mkdirSync(path.join(dir, 'docs/decisions'), { recursive: true });
    expect(findCorpusDir(dir)?.dir).toBe(path.join(dir, 'docs/decisions'));
    mkdirSync(path.join(dir, 'docs/adr'), { recursive: true });
    expect(findCorpusDir(dir)).toEqual({ dir: path.join(dir, 'docs/adr'), source: 'convention' });
    expect(CONVENTIONAL_CORPUS_DIRS).toEqual([
      'docs/adr',
      'docs/decisions',
      'docs/architecture/decisions',
      'doc/adr',
      'adr',
      'decisions',
    ]);
  });
});
