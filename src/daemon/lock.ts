/**
 * One daemon per state dir: an O_EXCL lockfile holding the owner's pid.
 * A lock whose pid is dead is stale and taken over; the takeover itself runs
 * under a second O_EXCL file so two starters that both saw the same stale lock
 * cannot both win. Plain node built-ins only: `moor daemon run` takes the lock
 * before it loads anything heavy, so a losing starter exits cheaply.
 */
import fs from 'node:fs';
import { isAliveProcess } from '../protocol/process-liveness.js';

export type LockResult =
  | { readonly acquired: true; release(): void }
  | { readonly acquired: false; readonly ownerPid: number };

/** True when `pid` names a live moor daemon (EPERM: alive, someone else's). */
export function isDaemonAlive(pid: number): boolean {
  if (!isAliveProcess(pid)) return false;
  // A recycled pid that is not a moor daemon does not hold the lock (Linux: /proc tells).
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('daemon');
  } catch {
    return true;
  }
}

export function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isSafeInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function createExclusive(file: string, pid: number): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, `${pid}\n`);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

function unlinkQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface LockOptions {
  readonly pid?: number;
  /** Whether the pid in an existing lock still owns it (default: a live moor daemon). */
  readonly ownerAlive?: (pid: number) => boolean;
}

/** Tries to take the lock; a live owner wins, a dead one is taken over. */
export function acquireLock(file: string, options: LockOptions = {}): LockResult {
  const pid = options.pid ?? process.pid;
  const isAlive = options.ownerAlive ?? isDaemonAlive;
  const takeover = `${file}.takeover`;
  for (let attempt = 0; attempt < 200; attempt++) {
    if (createExclusive(file, pid)) return { acquired: true, release: () => releaseLock(file, pid) };
    const owner = readPid(file);
    if (owner === pid) return { acquired: true, release: () => releaseLock(file, pid) };
    if (owner !== undefined && isAlive(owner)) return { acquired: false, ownerPid: owner };
    if (owner === undefined) {
      // Being written right now by a winner between create and write: look again shortly.
      sleepSync(5);
      if (readPid(file) === undefined) {
        // Still empty: a starter died between create and write. Treat as stale below.
      } else continue;
    }
    // Stale: take it over under the takeover file.
    if (!createExclusive(takeover, pid)) {
      const holder = readPid(takeover);
      if (holder !== undefined && holder !== pid && !isAliveProcess(holder)) unlinkQuietly(takeover);
      sleepSync(5);
      continue;
    }
    try {
      const again = readPid(file);
      if (again === owner) {
        unlinkQuietly(file);
        if (createExclusive(file, pid)) return { acquired: true, release: () => releaseLock(file, pid) };
      }
    } finally {
      unlinkQuietly(takeover);
    }
  }
  const owner = readPid(file);
  return { acquired: false, ownerPid: owner ?? 0 };
}

export { isAliveProcess };

/** Removes the lock only while it still names `pid`. */
export function releaseLock(file: string, pid: number = process.pid): void {
  if (readPid(file) === pid) unlinkQuietly(file);
}
