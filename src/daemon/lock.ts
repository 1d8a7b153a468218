/**
 * One daemon per state dir: an O_EXCL lockfile holding the owner's pid, kept
 * open by the owner for as long as it runs.
 *
 * A live pid alone proves nothing (pids are recycled, and any process may
 * carry "daemon" in its command line), so ownership is proven: the pid must
 * hold the lock file open, which the kernel undoes when it dies (Linux
 * /proc/<pid>/fd; `holdsFileOpen`). The owner opens the file in the same call
 * that creates it, so a daemon still starting (not yet listening) already
 * holds it. Where the platform cannot tell, a live process whose command line
 * names a daemon keeps the lock, as before.
 *
 * A lock not held is stale and taken over; the takeover itself runs under a
 * second O_EXCL file so two starters that both saw the same stale lock cannot
 * both win. Plain node built-ins only: `moor daemon run` takes the lock before
 * it loads anything heavy, so a losing starter exits cheaply.
 */
import fs from 'node:fs';
import { MoorError } from '../errors.js';
import { holdsFileOpen, isAliveProcess } from '../protocol/process-liveness.js';
import { describeFsFailure, readStateFile } from '../protocol/state-dir.js';

export type LockResult =
  | { readonly acquired: true; release(): void }
  | { readonly acquired: false; readonly ownerPid: number };

/** Where /proc cannot tell who holds a file: a live process with "daemon" in its command line. */
function looksLikeDaemon(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('daemon');
  } catch {
    return true;
  }
}

/** True when `pid` is alive and provably holds the lock `file` (EPERM: alive, someone else's). */
export function holdsLock(pid: number, file: string): boolean {
  if (!isAliveProcess(pid)) return false;
  return holdsFileOpen(pid, file) ?? looksLikeDaemon(pid);
}

export function readPid(file: string): number | undefined {
  const text = readStateFile(file);
  if (text === undefined) return undefined;
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) ? pid : undefined;
}

const EXCLUSIVE =
  fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;

function unusable(action: string, file: string, error: unknown): MoorError {
  return new MoorError('STATE_DIR_UNUSABLE', describeFsFailure(action, file, error), {
    errno: (error as NodeJS.ErrnoException).code ?? 'EIO',
  });
}

/** Creates `file` holding `pid`; returns its still-open descriptor, or undefined when it exists. */
function createExclusive(file: string, pid: number): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, EXCLUSIVE, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw unusable('create the lock file', file, error);
  }
  try {
    fs.writeSync(fd, `${pid}\n`);
  } catch (error) {
    fs.closeSync(fd);
    throw unusable('write the lock file', file, error);
  }
  return fd;
}

function unlinkQuietly(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unusable('remove', file, error);
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export interface LockOptions {
  readonly pid?: number;
  /** Whether the pid in an existing lock still owns it (default: `holdsLock`). */
  readonly ownerAlive?: (pid: number) => boolean;
}

/** Tries to take the lock; a proven owner keeps it, any other is taken over. */
export function acquireLock(file: string, options: LockOptions = {}): LockResult {
  const pid = options.pid ?? process.pid;
  const isHeld = options.ownerAlive ?? ((owner: number) => holdsLock(owner, file));
  const takeover = `${file}.takeover`;
  const held = (fd: number): LockResult => {
    let released = false;
    return {
      acquired: true,
      release: () => {
        if (released) return;
        released = true;
        fs.closeSync(fd);
        releaseLock(file, pid);
      },
    };
  };
  for (let attempt = 0; attempt < 200; attempt++) {
    const fd = createExclusive(file, pid);
    if (fd !== undefined) return held(fd);
    const owner = readPid(file);
    if (owner === pid) return held(fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW));
    if (owner !== undefined && isHeld(owner)) return { acquired: false, ownerPid: owner };
    if (owner === undefined) {
      // Being written right now by a winner between create and write: look again shortly.
      sleepSync(5);
      if (readPid(file) === undefined) {
        // Still empty: a starter died between create and write. Treat as stale below.
      } else continue;
    }
    // Stale: take it over under the takeover file.
    const takeoverFd = createExclusive(takeover, pid);
    if (takeoverFd === undefined) {
      const holder = readPid(takeover);
      if (holder !== undefined && holder !== pid && !isAliveProcess(holder)) unlinkQuietly(takeover);
      sleepSync(5);
      continue;
    }
    fs.closeSync(takeoverFd);
    try {
      const again = readPid(file);
      if (again === owner) {
        unlinkQuietly(file);
        const won = createExclusive(file, pid);
        if (won !== undefined) return held(won);
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
