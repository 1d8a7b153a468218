import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDaemonSocket, openStateFile, stateDirProblem } from '../../src/protocol/state-dir.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

const dirs: string[] = [];
const servers: net.Server[] = [];
const mounts: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
  for (const dir of mounts.splice(0)) execFileSync('umount', [dir]);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-state-'));
  dirs.push(dir);
  return dir;
}

async function listening(socketPath: string): Promise<void> {
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  fs.chmodSync(socketPath, 0o600);
}

describe('stateDirProblem', () => {
  it('creates a missing state dir 0700 and accepts it', () => {
    const dir = path.join(tmp(), 'a', 'moor');
    expect(stateDirProblem(dir)).toBeUndefined();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses a dir writable by others or by its group, saying chmod 700', () => {
    const dir = tmp();
    fs.chmodSync(dir, 0o777);
    expect(stateDirProblem(dir)).toContain(`writable by others (mode 0777)`);
    expect(stateDirProblem(dir)).toContain(`chmod 700 ${dir}`);
    fs.chmodSync(dir, 0o770);
    expect(stateDirProblem(dir)).toContain('writable by its group (mode 0770)');
  });

  it.runIf(isRoot)('refuses a dir owned by another user', () => {
    const dir = tmp();
    fs.chmodSync(dir, 0o700);
    fs.chownSync(dir, NOBODY, NOBODY);
    expect(stateDirProblem(dir)).toBe(
      `the state dir ${dir} belongs to uid ${NOBODY}, not to you (uid 0): moor will not trust it; set MOOR_STATE_DIR to a directory of your own (mode 0700)`,
    );
  });

  it('refuses a path under a regular file (ENOTDIR) and a file as the dir', () => {
    const file = path.join(tmp(), 'plain');
    fs.writeFileSync(file, '');
    expect(stateDirProblem(path.join(file, 'moor'))).toMatch(
      /^cannot create the state dir .*plain\/moor: a component of the path is not a directory \(ENOTDIR\); /,
    );
    expect(stateDirProblem(file)).toContain('is not a directory');
  });

  it('refuses a read-only file system, for the dir and for a dir to create inside it', (context) => {
    const dir = path.join(tmp(), 'ro');
    fs.mkdirSync(dir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    } catch {
      return context.skip('cannot mount a read-only tmpfs here (needs root)');
    }
    mounts.push(dir);
    expect(stateDirProblem(dir)).toMatch(
      /^cannot write into the state dir .*: read-only file system \(EROFS\)/,
    );
    expect(stateDirProblem(path.join(dir, 'moor'))).toMatch(
      /^cannot create the state dir .*\/ro\/moor: read-only file system \(EROFS\)/,
    );
  });
});

describe('checkDaemonSocket', () => {
  it('absent, then trusted once our own 0600 socket listens', async () => {
    const socketPath = path.join(tmp(), 'daemon.sock');
    expect(checkDaemonSocket(socketPath)).toEqual({ kind: 'absent' });
    await listening(socketPath);
    expect(checkDaemonSocket(socketPath)).toEqual({ kind: 'trusted' });
  });

  it.runIf(isRoot)('refuses a socket owned by another user', async () => {
    const socketPath = path.join(tmp(), 'daemon.sock');
    await listening(socketPath);
    fs.lchownSync(socketPath, NOBODY, NOBODY);
    const check = checkDaemonSocket(socketPath);
    expect(check.kind).toBe('untrusted');
    expect(check.kind === 'untrusted' && check.message).toContain(`belongs to uid ${NOBODY}, not to you`);
  });

  it('refuses a symlink to a socket, a plain file and a group-writable socket', async () => {
    const dir = tmp();
    const real = path.join(dir, 'real.sock');
    await listening(real);
    const link = path.join(dir, 'daemon.sock');
    fs.symlinkSync(real, link);
    expect(checkDaemonSocket(link)).toMatchObject({
      kind: 'untrusted',
      message: expect.stringContaining('a symbolic link'),
    });
    const file = path.join(dir, 'file.sock');
    fs.writeFileSync(file, '');
    expect(checkDaemonSocket(file)).toMatchObject({
      kind: 'untrusted',
      message: expect.stringContaining('not a socket'),
    });
    fs.chmodSync(real, 0o660);
    expect(checkDaemonSocket(real)).toMatchObject({
      kind: 'untrusted',
      message: expect.stringContaining('mode 0660'),
    });
  });
});

describe('openStateFile', () => {
  it('never follows a symlink: ELOOP with a message, the target untouched', () => {
    const dir = tmp();
    const target = path.join(dir, 'target');
    fs.writeFileSync(target, 'keep');
    const log = path.join(dir, 'daemon.log');
    fs.symlinkSync(target, log);
    const opening = openStateFile(
      log,
      fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT,
      'open the daemon log',
    );
    expect(opening).toEqual({
      ok: false,
      errno: 'ELOOP',
      message: `cannot open the daemon log ${log}: it is a symbolic link, which moor never follows in the state dir (ELOOP); fix that, or set MOOR_STATE_DIR to a directory of your own (mode 0700)`,
    });
    expect(fs.readFileSync(target, 'utf8')).toBe('keep');
  });

  it.runIf(isRoot)('refuses a hard link to someone else’s file', () => {
    const dir = tmp();
    const theirs = path.join(dir, 'theirs');
    fs.writeFileSync(theirs, 'x');
    fs.chownSync(theirs, NOBODY, NOBODY);
    fs.linkSync(theirs, path.join(dir, 'daemon.log'));
    expect(openStateFile(path.join(dir, 'daemon.log'), fs.constants.O_WRONLY)).toMatchObject({
      ok: false,
      errno: 'EUNTRUSTED',
      message: expect.stringContaining('belongs to uid 65534, not to you'),
    });
  });
});
