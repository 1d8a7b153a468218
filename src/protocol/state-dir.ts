/**
 * Where a user's daemon keeps its state, the files in it, and whether that
 * place can be trusted. Shared by the daemon and the proxy (which must find
 * the socket, and refuse an unusable state dir, without loading anything else).
 *
 * Trust: the state dir holds the socket every client talks to and files the
 * daemon writes into. A dir another user can write lets them plant a symlink
 * (`daemon.log` → a file of ours the daemon then appends to) or their own
 * `daemon.sock`. So the dir must be ours and writable by us alone, and state
 * files are opened without following symlinks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MOOR_STATE_DIR) return path.resolve(env.MOOR_STATE_DIR);
  if (env.XDG_STATE_HOME) return path.join(path.resolve(env.XDG_STATE_HOME), 'moor');
  return path.join(os.homedir(), '.local', 'state', 'moor');
}

export interface StatePaths {
  readonly dir: string;
  /** Unix socket, mode 0600. */
  readonly socket: string;
  /** Held by the one daemon serving this state dir. */
  readonly lock: string;
  /** JSON Incarnation of the daemon that holds the lock. */
  readonly incarnation: string;
  readonly log: string;
  /** SQLite store (tasks, bindings). */
  readonly database: string;
  /** JSON StartRefusal: why the last daemon refused to start (src/protocol/start-refusal.ts). */
  readonly startRefusal: string;
}

export function statePaths(dir: string = stateDir()): StatePaths {
  return {
    dir,
    socket: path.join(dir, 'daemon.sock'),
    lock: path.join(dir, 'daemon.lock'),
    incarnation: path.join(dir, 'incarnation.json'),
    log: path.join(dir, 'daemon.log'),
    database: path.join(dir, 'moor.db'),
    startRefusal: path.join(dir, 'start-refusal.json'),
  };
}

const ERRNO_WORDS: Readonly<Record<string, string>> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a component of the path is not a directory',
  ENOENT: 'no such file or directory',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ELOOP: 'it is a symbolic link, which moor never follows in the state dir',
  EEXIST: 'it already exists',
  EISDIR: 'it is a directory',
};

/** Where the user should look when a state dir problem is theirs to fix. */
const STATE_DIR_HINT = 'fix that, or set MOOR_STATE_DIR to a directory of your own (mode 0700)';

/** `cannot <action> <file>: <what the errno means> (<CODE>); <hint>` — one line, no stack. */
export function describeFsFailure(
  action: string,
  file: string,
  error: unknown,
  hint = STATE_DIR_HINT,
): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const words =
    code === undefined
      ? String((error as Error)?.message ?? error)
      : (ERRNO_WORDS[code] ?? (error as Error).message);
  return `cannot ${action} ${file}: ${words}${code === undefined ? '' : ` (${code})`}; ${hint}`;
}

function ownUid(): number | undefined {
  return process.getuid?.();
}

/** Recursive mkdir on a read-only file system may answer ENOENT: the nearest existing ancestor says why. */
function ancestorFailure(dir: string): unknown {
  let parent = path.dirname(dir);
  while (!fs.existsSync(parent) && path.dirname(parent) !== parent) parent = path.dirname(parent);
  try {
    fs.accessSync(parent, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    return error;
  }
}

/**
 * Why `dir` cannot serve as the state dir, or undefined when it can. Creates
 * it (0700) when missing. Refused: not creatable, not a directory, owned by
 * someone else, writable by group or others, or not writable by us (a
 * read-only file system). The proxy calls this before starting a daemon, so a
 * pending request is answered with what is wrong instead of a timeout.
 */
export function stateDirProblem(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // EEXIST: something that is not a directory is there, which the check below names.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      return describeFsFailure('create the state dir', dir, ancestorFailure(dir) ?? error);
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch (error) {
    return describeFsFailure('read the state dir', dir, error);
  }
  if (!stat.isDirectory()) return `the state dir ${dir} is not a directory; ${STATE_DIR_HINT}`;
  const uid = ownUid();
  if (uid !== undefined && stat.uid !== uid)
    return `the state dir ${dir} belongs to uid ${stat.uid}, not to you (uid ${uid}): moor will not trust it; set MOOR_STATE_DIR to a directory of your own (mode 0700)`;
  if ((stat.mode & 0o022) !== 0)
    return `the state dir ${dir} is writable by ${(stat.mode & 0o002) !== 0 ? 'others' : 'its group'} (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}): anyone who can write there can plant files moor trusts; run \`chmod 700 ${dir}\` (after checking what is in it), or set MOOR_STATE_DIR to another directory`;
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    return describeFsFailure('write into the state dir', dir, error);
  }
  return undefined;
}

export type SocketCheck =
  | { readonly kind: 'trusted' }
  | { readonly kind: 'absent' }
  | { readonly kind: 'untrusted'; readonly message: string };

/**
 * Whether the daemon socket at `socketPath` may be talked to: a socket (not a
 * symlink or anything else), owned by us, not writable by group or others.
 * Clients call this before sending anything. Node cannot read the peer's
 * credentials (SO_PEERCRED) without native code, so the owner of the socket
 * file and the 0700 state dir around it are what vouch for the daemon.
 */
export function checkDaemonSocket(socketPath: string): SocketCheck {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'untrusted', message: describeFsFailure('inspect the daemon socket', socketPath, error) };
  }
  if (!stat.isSocket())
    return {
      kind: 'untrusted',
      message: `${socketPath} is not a socket (${stat.isSymbolicLink() ? 'a symbolic link' : 'another kind of file'}): moor will not use it; remove it, and check who can write to ${path.dirname(socketPath)}`,
    };
  const uid = ownUid();
  if (uid !== undefined && stat.uid !== uid)
    return {
      kind: 'untrusted',
      message: `the daemon socket ${socketPath} belongs to uid ${stat.uid}, not to you (uid ${uid}): moor will not talk to it; remove it, and check who can write to ${path.dirname(socketPath)}`,
    };
  if ((stat.mode & 0o022) !== 0)
    return {
      kind: 'untrusted',
      message: `the daemon socket ${socketPath} is writable by group or others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}): moor will not talk to it; stop the daemon and remove it`,
    };
  return { kind: 'trusted' };
}

export type StateFileOpening =
  | { readonly ok: true; readonly fd: number }
  /** `errno`: the open's errno code, or EUNTRUSTED for a file that is not a regular file of ours. */
  | { readonly ok: false; readonly errno: string; readonly message: string };

/**
 * Opens a state file without following a symlink, and only when it is a
 * regular file of ours (a hard link to someone else's file is refused too).
 * `action` words the failure: `cannot <action> <file>: …`.
 */
export function openStateFile(file: string, flags: number, action = 'open', mode = 0o600): StateFileOpening {
  let fd: number;
  try {
    fd = fs.openSync(file, flags | fs.constants.O_NOFOLLOW, mode);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, errno, message: describeFsFailure(action, file, error) };
  }
  const stat = fs.fstatSync(fd);
  const uid = ownUid();
  if (stat.isFile() && (uid === undefined || stat.uid === uid)) return { ok: true, fd };
  fs.closeSync(fd);
  const why = stat.isFile() ? `it belongs to uid ${stat.uid}, not to you` : 'it is not a regular file';
  return {
    ok: false,
    errno: 'EUNTRUSTED',
    message: `cannot ${action} ${file}: ${why}; remove it, and check who can write to ${path.dirname(file)}`,
  };
}

/** Reads a small state file without following a symlink; undefined when absent or unreadable. */
export function readStateFile(file: string): string | undefined {
  const opening = openStateFile(file, fs.constants.O_RDONLY, 'read');
  if (!opening.ok) return undefined;
  try {
    return fs.readFileSync(opening.fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(opening.fd);
  }
}
