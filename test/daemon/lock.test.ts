import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireLock,
  EMPTY_LOCK_GRACE_MS,
  holdsLock,
  isAliveProcess,
  readPid,
} from '../../src/daemon/lock.js';
import { holdsFileOpen } from '../../src/protocol/process-liveness.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A live process whose command line says "daemon" and that holds no lock (`exec -a fake-daemon sleep 120`). */
async function fakeDaemon(): Promise<number> {
  // argv0 sets the command line before exec, so it reads fake-daemon from the first moment.
  const child = spawn('sleep', ['120'], { argv0: 'fake-daemon', stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  return child.pid as number;
}

/** Another process that takes the lock (from the built module) and says so on stdout. */
async function otherHolder(file: string): Promise<number> {
  const script = `
    import { acquireLock } from ${JSON.stringify(path.resolve('dist/daemon/lock.js'))};
    console.log(acquireLock(${JSON.stringify(file)}).acquired ? 'won' : 'lost');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
  children.push(child);
  const said = await new Promise<string>((resolve) =>
    child.stdout.once('data', (c) => resolve(String(c).trim())),
  );
  expect(said).toBe('won');
  return child.pid as number;
}

function lockFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'moor-lock-'));
  dirs.push(dir);
  return path.join(dir, 'daemon.lock');
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid as number;
}

describe('acquireLock', () => {
  it('creates the lock holding the pid, 0600; release removes it', () => {
    const file = lockFile();
    const lock = acquireLock(file, { pid: 4242, ownerAlive: () => true });
    expect(lock.acquired).toBe(true);
    expect(readPid(file)).toBe(4242);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    if (lock.acquired) lock.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a lock still empty (its starter between create and write) is not taken over', () => {
    const file = lockFile();
    // What a starter descheduled between creating the file and writing its pid leaves for a moment.
    const writer = fs.openSync(file, 'wx', 0o600);
    try {
      expect(acquireLock(file, { pid: 5555 })).toEqual({ acquired: false, ownerPid: 0 });
      expect(fs.readFileSync(file, 'utf8')).toBe('');
      expect(fs.fstatSync(writer).ino).toBe(fs.statSync(file).ino);
    } finally {
      fs.closeSync(writer);
    }
  });

  it('an empty lock older than the grace period is stale: taken over', () => {
    const file = lockFile();
    fs.writeFileSync(file, '');
    const old = (Date.now() - EMPTY_LOCK_GRACE_MS - 5000) / 1000;
    fs.utimesSync(file, old, old);
    const lock = acquireLock(file, { pid: 6666 });
    expect(lock.acquired).toBe(true);
    expect(readPid(file)).toBe(6666);
  });

  it('leaves nothing but the lock in the state dir, the pid in it', () => {
    const file = lockFile();
    const lock = acquireLock(file, { pid: 7777 });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['daemon.lock']);
    expect(fs.readFileSync(file, 'utf8')).toBe('7777\n');
    if (lock.acquired) lock.release();
  });

  it('a live owner keeps it', () => {
    const file = lockFile();
    acquireLock(file, { pid: 1111, ownerAlive: () => true });
    expect(acquireLock(file, { pid: 2222, ownerAlive: () => true })).toEqual({
      acquired: false,
      ownerPid: 1111,
    });
  });

  it('a dead owner’s lock is taken over', async () => {
    const file = lockFile();
    const dead = await deadPid();
    fs.writeFileSync(file, `${dead}\n`);
    expect(isAliveProcess(dead)).toBe(false);
    expect(acquireLock(file, { pid: 3333 }).acquired).toBe(true);
    expect(readPid(file)).toBe(3333);
  });

  it('release leaves a lock that someone else took over', () => {
    const file = lockFile();
    const lock = acquireLock(file, { pid: 1, ownerAlive: () => false });
    fs.writeFileSync(file, '999\n');
    if (lock.acquired) lock.release();
    expect(readPid(file)).toBe(999);
  });

  it('of many processes racing for a stale lock, exactly one wins', async () => {
    const file = lockFile();
    fs.writeFileSync(file, `${await deadPid()}\n`);
    const script = `
      import { acquireLock } from ${JSON.stringify(path.resolve('dist/daemon/lock.js'))};
      const r = acquireLock(${JSON.stringify(file)}, { ownerAlive: (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } } });
      console.log(r.acquired ? 'won' : 'lost');
      setTimeout(() => {}, 1500);`;
    const outputs = await Promise.all(
      Array.from({ length: 8 }, () => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
        return new Promise<string>((resolve) => {
          let out = '';
          child.stdout.on('data', (c) => {
            out += c;
            if (out.includes('\n')) resolve(out.trim());
          });
          child.on('exit', () => resolve(out.trim()));
        });
      }),
    );
    expect(outputs.filter((o) => o === 'won')).toHaveLength(1);
    expect(outputs.filter((o) => o === 'lost')).toHaveLength(7);
  });

  it('a live process that merely has "daemon" in its command line does not hold it: taken over', async () => {
    const file = lockFile();
    const fake = await fakeDaemon();
    fs.writeFileSync(file, `${fake}\n`);
    expect(fs.readFileSync(`/proc/${fake}/cmdline`, 'utf8')).toContain('fake-daemon');
    expect(isAliveProcess(fake)).toBe(true);
    expect(holdsLock(fake, file)).toBe(false);
    const lock = acquireLock(file, { pid: process.pid });
    expect(lock.acquired).toBe(true);
    expect(readPid(file)).toBe(process.pid);
    if (lock.acquired) lock.release();
  });

  it('a process that took the lock keeps holding it (it keeps the file open) and wins against us', async () => {
    const file = lockFile();
    const holder = await otherHolder(file);
    expect(holdsFileOpen(holder, file)).toBe(true);
    expect(holdsLock(holder, file)).toBe(true);
    expect(acquireLock(file)).toEqual({ acquired: false, ownerPid: holder });
  });

  it('our own held lock is visible in /proc until released', () => {
    const file = lockFile();
    const lock = acquireLock(file);
    expect(holdsFileOpen(process.pid, file)).toBe(true);
    if (lock.acquired) lock.release();
    expect(fs.existsSync(file)).toBe(false);
  });
});
