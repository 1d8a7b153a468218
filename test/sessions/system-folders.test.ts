import { describe, expect, it } from 'vitest';
import { MoorError } from '../../src/errors.js';
import { isSystemFolder, refuseSystemFolder } from '../../src/sessions/system-folders.js';

describe('system folders a root daemon refuses', () => {
  it('refuses /, /root, /home and everything in the system trees', () => {
    for (const folder of [
      '/',
      '/root',
      '/home',
      '/etc',
      '/etc/ssh',
      '/usr/share',
      '/var/lib/x',
      '/lib64',
      '/proc/1',
    ])
      expect(isSystemFolder(folder), folder).toBe(true);
  });

  it('accepts projects, also below /root and /home', () => {
    for (const folder of [
      '/root/project',
      '/home/ada/repo',
      '/srv/app',
      '/tmp/x',
      '/work/repo',
      '/etcetera',
      '/usrx',
    ])
      expect(isSystemFolder(folder), folder).toBe(false);
  });

  it('throws WORKSPACE_INVALID as root only', () => {
    expect(() => refuseSystemFolder('/etc', 0)).toThrow(MoorError);
    try {
      refuseSystemFolder('/etc', 0);
    } catch (error) {
      expect((error as MoorError).code).toBe('WORKSPACE_INVALID');
    }
    expect(() => refuseSystemFolder('/etc', 1000)).not.toThrow();
    expect(() => refuseSystemFolder('/root/project', 0)).not.toThrow();
  });
});
