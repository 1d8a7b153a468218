import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toWorkspaceRelative } from '../../../../../src/packs/decisions/corpus/find/paths.js';
import { tempDir } from '../helpers.js';

let base: string;
let root: string;
let cleanup: () => void;

beforeAll(() => {
  ({ dir: base, cleanup } = tempDir());
  root = path.join(base, 'repo');
  mkdirSync(path.join(root, 'src/inner'), { recursive: true });
  mkdirSync(path.join(base, 'secret'));
  writeFileSync(path.join(base, 'secret/key.txt'), 'x');
  writeFileSync(path.join(root, 'src/a.ts'), 'x');
  symlinkSync(path.join(base, 'secret'), path.join(root, 'src/escape'));
  symlinkSync(path.join(root, 'src/inner'), path.join(root, 'src/alias'));
});

afterAll(() => cleanup());

describe('toWorkspaceRelative', () => {
  it('normalizes relative and absolute paths inside the root', () => {
    expect(toWorkspaceRelative(root, 'src/a.ts')).toEqual({ ok: true, path: 'src/a.ts' });
    expect(toWorkspaceRelative(root, './src//inner/../a.ts')).toEqual({ ok: true, path: 'src/a.ts' });
    expect(toWorkspaceRelative(root, path.join(root, 'src/a.ts'))).toEqual({ ok: true, path: 'src/a.ts' });
    expect(toWorkspaceRelative(root, 'src\\a.ts')).toEqual({ ok: true, path: 'src/a.ts' });
  });

  it('allows files that do not exist yet, and symlinks that stay inside', () => {
    expect(toWorkspaceRelative(root, 'src/new/file.ts')).toEqual({ ok: true, path: 'src/new/file.ts' });
    expect(toWorkspaceRelative(root, 'src/alias/x.ts')).toEqual({ ok: true, path: 'src/alias/x.ts' });
  });

  it('refuses .. escapes, absolute paths outside, and symlinks that leave the root', () => {
    const refused = (input: string): string => {
      const r = toWorkspaceRelative(root, input);
      if (r.ok) throw new Error(`expected ${input} to be refused`);
      return r.reason;
    };
    expect(refused('../secret/key.txt')).toMatch(/escapes the workspace root/);
    expect(refused('src/../../secret')).toMatch(/escapes the workspace root/);
    expect(refused(path.join(base, 'secret/key.txt'))).toMatch(/outside the workspace root/);
    expect(refused('/etc/passwd')).toMatch(/outside the workspace root/);
    expect(refused(`${root}-sibling/x`)).toMatch(/outside the workspace root/);
    expect(refused('src/escape/key.txt')).toMatch(/symlink/);
    expect(refused('src/escape/not-yet-there.txt')).toMatch(/symlink/);
    expect(refused('')).toMatch(/empty/);
    expect(refused('.')).toMatch(/root itself/);
    expect(refused('a\0b')).toMatch(/NUL/);
  });
});
