/**
 * Copies of the build that differ only in their package.json version: dist/
 * and package.json in a temporary dir, node_modules linked. What an upgrade
 * or a downgrade looks like to the daemon without publishing anything.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT } from './paths.js';

/** Makes the copy (its dir added to `dirs`, for the caller to remove) and returns its CLI, `dist/cli/main.js`. */
export function buildVersionedCopy(version: string, dirs: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `moor-v${version}-`));
  dirs.push(dir);
  fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...pkg, version }, null, 2));
  fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  return path.join(dir, 'dist/cli/main.js');
}

/**
 * A 0.1.0 and a 0.2.0 copy for one test file: built before its tests, removed
 * after them. Read `old`/`new` inside tests (they are set in beforeAll).
 */
export function olderAndNewerCopies(): { old: string; new: string } {
  const dirs: string[] = [];
  const bins = { old: '', new: '' };
  beforeAll(() => {
    bins.old = buildVersionedCopy('0.1.0', dirs);
    bins.new = buildVersionedCopy('0.2.0', dirs);
  });
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  return bins;
}
