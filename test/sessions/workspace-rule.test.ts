/**
 * The workspace rule on the real path: a root daemon refuses system folders
 * however they are spelt (`//etc`, `/./etc/`, a symlink, `/proc/self/root`),
 * and a decisions folder outside the workspace passes the same rule (so a
 * connect cannot read another user's private folder as its decisions).
 * These run as root here, so uid 0 is the real case.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTarget, createWorkspacePolicy } from '../../src/sessions/workspace-path.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-rule-')));
  made.push(dir);
  return dir;
}

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

const asRoot = createWorkspacePolicy({ uid: 0 });

describe('the workspace rule on real paths', () => {
  it.each([
    ['/etc', '/etc'],
    ['/proc', '/proc'],
    ['/', '/'],
    ['/root', '/root'],
    ['/home', '/home'],
    ['//etc', '/etc'],
    ['/./etc/', '/etc'],
    ['/proc/self/root', '/'],
    ['/usr/share', '/usr/share'],
  ])('a root daemon refuses %s (the real %s)', (input, real) => {
    fs.mkdirSync('/home', { recursive: true });
    const error = refusal(() => asRoot.check(input, { label: 'path' }));
    expect(error.code).toBe('WORKSPACE_INVALID');
    expect(error.message).toBe(
      `path ${real} is a system folder: the daemon runs as root and never serves one as a workspace.`,
    );
  });

  it('a root daemon refuses a symlink to /etc, and the same folder as a non-root daemon’s own is fine', () => {
    const dir = temp();
    fs.symlinkSync('/etc', path.join(dir, 'etc-link'));
    expect(refusal(() => asRoot.check(path.join(dir, 'etc-link'))).message).toContain(
      '/etc is a system folder',
    );
    expect(asRoot.check(dir)).toBe(dir);
  });

  it('a decisions folder inside the workspace may not exist yet; outside it passes the rule or is refused', () => {
    const root = temp();
    const policy = createWorkspacePolicy({ uid: process.getuid?.() });
    expect(connectTarget(policy, { root, decisions: 'docs/decisions' })).toEqual({
      root,
      decisions: path.join(root, 'docs/decisions'),
    });
    // Another user's private folder as the decisions of one's own workspace.
    const privateDir = temp();
    fs.chmodSync(privateDir, 0o700);
    fs.chownSync(privateDir, 4242, 4242);
    const foreign = refusal(() => connectTarget(policy, { root, decisions: privateDir }));
    expect(foreign.code).toBe('WORKSPACE_INVALID');
    expect(foreign.message).toBe(
      `decisions ${privateDir} is not owned by the daemon's user; start the daemon with --allow-root to serve it.`,
    );
    // A symlink inside the workspace that leads out of it is outside.
    fs.symlinkSync(privateDir, path.join(root, 'sneaky'));
    expect(refusal(() => connectTarget(policy, { root, decisions: 'sneaky' })).message).toContain(
      'is not owned by the daemon',
    );
    // ../ out of the workspace into a system folder, for a root daemon.
    expect(refusal(() => connectTarget(asRoot, { root, decisions: '/home' })).message).toBe(
      'decisions /home is a system folder: the daemon runs as root and never serves one as a workspace.',
    );
  });

  it('with --allow-root, a decisions folder outside the allowed roots is refused', () => {
    const allowed = temp();
    const outside = temp();
    const policy = createWorkspacePolicy({ allowedRoots: [allowed] });
    const error = refusal(() => connectTarget(policy, { root: allowed, decisions: outside }));
    expect(error.message).toBe(`decisions ${outside} is outside the daemon's allowed roots (${allowed}).`);
  });
});
