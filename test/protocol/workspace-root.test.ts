/**
 * The workspace-root rule the proxy, the direct server and the daemon share.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MoorError } from '../../src/errors.js';
import { resolveWorkspaceRoot, WorkspaceNotFoundError } from '../../src/protocol/workspace-root.js';

describe('resolveWorkspaceRoot', () => {
  it('uses an explicit directory, else MOOR_WORKSPACE, else the enclosing git root', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'moor-ws-')));
    try {
      fs.mkdirSync(path.join(root, '.git'));
      fs.mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
      expect(resolveWorkspaceRoot({ workspace: 'a', env: {}, cwd: root })).toBe(path.join(root, 'a'));
      expect(resolveWorkspaceRoot({ env: { MOOR_WORKSPACE: path.join(root, 'a') }, cwd: '/' })).toBe(
        path.join(root, 'a'),
      );
      expect(resolveWorkspaceRoot({ env: {}, cwd: path.join(root, 'a', 'b') })).toBe(root);
      expect(() => resolveWorkspaceRoot({ workspace: 'missing', env: {}, cwd: root })).toThrow(
        /does not exist/,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('WorkspaceNotFoundError', () => {
  it('is a WORKSPACE_INVALID MoorError naming the directory', () => {
    const error = new WorkspaceNotFoundError('/nowhere');
    expect(error).toBeInstanceOf(MoorError);
    expect(error.code).toBe('WORKSPACE_INVALID');
    expect(error.message).toBe('workspace directory /nowhere does not exist or is not a directory');
    expect(error.data).toEqual({ dir: '/nowhere' });
  });
});
