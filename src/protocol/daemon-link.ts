/**
 * Reaching the daemon: connect to its socket and exchange the hello, or start
 * it detached. Shared by the proxy and the CLI's daemon commands; node
 * built-ins only, so the proxy that loads it still starts fast.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MoorError } from '../errors.js';
import { type DaemonRunFlags, daemonRunArgs } from './daemon-flags.js';
import { openStateFile, type StatePaths, stateDirProblem } from './state-dir.js';

export { connectDaemon, type DaemonLink, type LinkOutcome } from './daemon-connect.js';

/** The CLI entry point that `moor daemon run` is spawned from. */
export const CLI_PATH = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/**
 * V8 flags for a spawned daemon. A small young generation (2 MiB semi-spaces
 * instead of growing to 16) keeps the heap V8 holds on to close to what the
 * daemon uses: measured, idle RSS ~74 MiB and +0-12% after 10,000 requests,
 * against ~86 MiB and +30-40% by default, for a few percent more CPU.
 */
export const DAEMON_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

/**
 * The node command line of a spawned daemon: V8 flags, the CLI entry,
 * `daemon run --detached`, then the caller's daemon flags. The one place that
 * composes it.
 */
export function daemonSpawnArgs(flags: DaemonRunFlags = {}): string[] {
  return [...DAEMON_NODE_FLAGS, CLI_PATH, 'daemon', 'run', '--detached', ...daemonRunArgs(flags)];
}

/**
 * Starts `moor daemon run` detached, its output appended to the daemon log.
 * Returns the child's pid; the lock decides whether it stays (a loser exits 0).
 * `onExit` hears the child's exit code while this process still runs (the CLI
 * waiting for a start); the child is never kept waiting on it.
 */
export function spawnDaemon(
  paths: StatePaths,
  flags: DaemonRunFlags = {},
  cwd = '/',
  onExit?: (code: number | null) => void,
): number | undefined {
  return spawnDaemonProcess(paths, daemonSpawnArgs(flags), cwd, onExit);
}

/** Starts a daemon process with the node arguments given (e.g. a successor's), output to the daemon log. */
export function spawnDaemonProcess(
  paths: StatePaths,
  args: readonly string[],
  cwd: string,
  onExit?: (code: number | null) => void,
  env: Record<string, string> = {},
  /** A descriptor of this process the child gets as its fd 3 (the HTTP listening socket of a handoff). */
  handedFd?: number,
): number | undefined {
  const problem = stateDirProblem(paths.dir);
  if (problem !== undefined) throw new MoorError('STATE_DIR_UNUSABLE', problem);
  // Never through a planted symlink: the log is opened the way the daemon opens it.
  const opening = openStateFile(
    paths.log,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT,
    'open the daemon log',
  );
  if (!opening.ok) throw new MoorError('STATE_DIR_UNUSABLE', opening.message);
  const out = opening.fd;
  try {
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: handedFd === undefined ? ['ignore', out, out] : ['ignore', out, out, handedFd],
      env: { ...process.env, ...env, MOOR_STATE_DIR: paths.dir },
      cwd,
    });
    child.on('error', () => {});
    if (onExit) child.on('exit', (code) => onExit(code));
    child.unref();
    return child.pid;
  } finally {
    fs.closeSync(out);
  }
}
