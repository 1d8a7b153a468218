/**
 * One daemon per state dir: a lockfile holding the owner's pid, created
 * exclusively (a hard link of a file already holding the pid, so it is never
 * empty) and kept open by the owner for as long as it runs.
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

/** Link errors that mean "this filesystem has no hard links", not "the lock exists". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS']);

/**
 * Creates `file` holding `pid`; returns its still-open descriptor, or
 * undefined when it exists. The file is never seen empty: the pid is written
 * to a private staging file first, which is then hard-linked into place (a
 * link, like O_EXCL, fails when the name exists). An empty lock would be a
 * starter between create and write, and a starter descheduled there looked
 * stale to the others: two daemons then each believed they held the lock.
 */
function createExclusive(file: string, pid: number): number | undefined {
  const staging = `${file}.${pid}.${Math.random().toString(36).slice(2, 10)}`;
  let fd: number;
  try {
    fd = fs.openSync(staging, EXCLUSIVE, 0o600);
  } catch (error) {
    throw unusable('create the lock file', staging, error);
  }
  try {
    fs.writeSync(fd, `${pid}\n`);
    fs.linkSync(staging, file);
    return fd;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    fs.closeSync(fd);
    if (code === 'EEXIST') return undefined;
    if (NO_HARD_LINKS.has(code)) return createInPlace(file, pid);
    throw unusable('create the lock file', file, error);
  } finally {
    unlinkQuietly(staging);
  }
}

/** Where hard links are refused: O_EXCL on the name itself (briefly empty; see EMPTY_LOCK_GRACE_MS). */
function createInPlace(file: string, pid: number): number | undefined {
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

/**
 * How long an empty lock file counts as a starter still writing its pid (one
 * on a filesystem without hard links, or an older moor). Only an empty file
 * older than this is stale: however long a starter is descheduled between
 * create and write, a few milliseconds of patience were never proof.
 */
export const EMPTY_LOCK_GRACE_MS = 2000;

function emptyAndFresh(file: string, now = Date.now()): boolean {
  try {
    const stat = fs.lstatSync(file);
    return stat.size === 0 && now - stat.mtimeMs < EMPTY_LOCK_GRACE_MS;
  } catch {
    return false;
  }
}

/** Whether `file` is still the file behind our descriptor `fd` (same inode). */
function isOurs(file: string, fd: number): boolean {
  try {
    const mine = fs.fstatSync(fd);
    const there = fs.lstatSync(file);
    return mine.ino === there.ino && mine.dev === there.dev;
  } catch {
    return false;
  }
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
    if (owner === undefined && !fs.existsSync(file)) continue; // released meanwhile: try to create it
    if (owner === undefined && emptyAndFresh(file)) {
      // A starter between create and write: it holds the lock, we just cannot read whose it is yet.
      sleepSync(5);
      continue;
    }
    // Stale: take it over under the takeover file, which its holder keeps open while it works.
    const takeoverFd = createExclusive(takeover, pid);
    if (takeoverFd === undefined) {
      const holder = readPid(takeover);
      if (holder !== undefined && holder !== pid && !holdsLock(holder, takeover)) unlinkQuietly(takeover);
      sleepSync(5);
      continue;
    }
    try {
      const again = readPid(file);
      if (again === owner) {
        unlinkQuietly(file);
        const won = createExclusive(file, pid);
        if (won !== undefined) return held(won);
      }
    } finally {
      // Only our own: a takeover file someone else made after ours was judged stale is theirs.
      if (isOurs(takeover, takeoverFd)) unlinkQuietly(takeover);
      fs.closeSync(takeoverFd);
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
