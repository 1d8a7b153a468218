import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveWorkspace } from '../../../src/app/commands/options.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('--decisions', () => {
  it('is relative to the workspace root, not to the current directory', () => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'moor-options-')));
    const root = dir;
    mkdirSync(path.join(root, 'docs/adr'), { recursive: true });
    const resolved = resolveWorkspace({ workspace: root, decisions: 'docs/adr' }, '/');
    expect(resolved).toEqual({ root, decisionsDir: path.join(root, 'docs/adr') });
    expect(resolveWorkspace({ workspace: root, decisions: '/elsewhere/adr' }, '/').decisionsDir).toBe(
      '/elsewhere/adr',
    );
  });
});
