import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspacePolicy, workspaceExists } from '../../src/sessions/workspace-path.js';
import { cleanupDirs, makeDirs } from './helpers.js';

afterEach(cleanupDirs);

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('workspace path policy', () => {
  it('accepts an owned directory and resolves it through symlinks', () => {
    const d = makeDirs('real');
    const link = path.join(path.dirname(d.real as string), 'link');
    fs.symlinkSync(d.real as string, link);
    expect(createWorkspacePolicy().check(link)).toBe(d.real);
    expect(createWorkspacePolicy().check('real', { base: path.dirname(link) })).toBe(d.real);
  });

  it('refuses a directory another user owns, naming the way out', () => {
    const d = makeDirs('a');
    const other = (process.getuid?.() ?? 0) + 1;
    const error = refusal(() =>
      createWorkspacePolicy({ uid: other }).check(d.a as string, { label: 'Moor-Workspace' }),
    );
    expect(error.code).toBe('WORKSPACE_INVALID');
    expect(error.message).toBe(
      `Moor-Workspace ${d.a} is not owned by the daemon's user; start the daemon with --allow-root to serve it.`,
    );
  });

  it('with allowed roots, accepts what is inside one and refuses the rest', () => {
    const d = makeDirs('allowed', 'outside');
    fs.mkdirSync(path.join(d.allowed as string, 'repo'));
    const policy = createWorkspacePolicy({ allowedRoots: [d.allowed as string], uid: -1 });
    expect(policy.check(path.join(d.allowed as string, 'repo'))).toBe(path.join(d.allowed as string, 'repo'));
    expect(policy.check(d.allowed as string)).toBe(d.allowed);
    const error = refusal(() => policy.check(d.outside as string));
    expect(error.message).toBe(
      `workspace ${d.outside} is outside the daemon's allowed roots (${d.allowed}).`,
    );
    // A sibling sharing the prefix is not inside.
    fs.mkdirSync(`${d.allowed}-x`);
    expect(refusal(() => policy.check(`${d.allowed}-x`)).code).toBe('WORKSPACE_INVALID');
    fs.rmdirSync(`${d.allowed}-x`);
  });

  it('workspaceExists checks the root and a named decision folder', () => {
    const d = makeDirs('a');
    expect(workspaceExists({ root: d.a as string })).toBe(true);
    expect(workspaceExists({ root: d.a as string, decisions: path.join(d.a as string, 'adr') })).toBe(false);
  });
});
