/**
 * Starting and stopping the daemon from the command line: control hellos on
 * its socket, and the waits in between (until a started daemon answers, until
 * a stopped one's process is gone). Outcomes are returned; the CLI prints them.
 */
import { isAliveProcess } from '../../daemon/lock.js';
import { ensureStateDir } from '../../daemon/state.js';
import type { DaemonRunFlags } from '../../protocol/daemon-flags.js';
import { connectDaemon, spawnDaemon } from '../../protocol/daemon-link.js';
import { HELLO_VERSION, type HelloReply } from '../../protocol/hello.js';
import type { StatePaths } from '../../protocol/state-dir.js';

/** How long `start` waits for the daemon it spawned to answer. */
export const START_TIMEOUT_MS = 10_000;
const START_POLL_MS = 50;
const STOP_POLL_MS = 25;
const CONTROL_TIMEOUT_MS = 3000;

export type ControlReply = HelloReply & { ok: true };

/** Sends a control hello; undefined when no daemon answers. */
export async function askDaemon(
  paths: StatePaths,
  what: 'status' | 'stop' | 'metrics',
): Promise<ControlReply | undefined> {
  const outcome = await connectDaemon(
    paths.socket,
    { moor: HELLO_VERSION, control: what },
    CONTROL_TIMEOUT_MS,
  );
  if (outcome.kind !== 'connected') return undefined;
  outcome.link.socket.destroy();
  return outcome.link.reply;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type StartOutcome =
  | { readonly kind: 'already-running'; readonly pid: number }
  | { readonly kind: 'started'; readonly pid: number }
  | { readonly kind: 'no-answer'; readonly timeoutMs: number };

/**
 * Starts a detached `moor daemon run` with `args` unless one answers already,
 * and waits until a daemon answers. The one spawned may lose the lock to
 * another starter; then that one's answer counts.
 */
export async function startDaemon(
  paths: StatePaths,
  flags: DaemonRunFlags,
  timeoutMs = START_TIMEOUT_MS,
): Promise<StartOutcome> {
  ensureStateDir(paths.dir);
  const existing = await askDaemon(paths, 'status');
  if (existing) return { kind: 'already-running', pid: existing.incarnation.pid };
  const pid = spawnDaemon(paths, flags, process.cwd());
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(START_POLL_MS);
    const reply = await askDaemon(paths, 'status');
    if (reply) return { kind: 'started', pid: reply.incarnation.pid };
    if (pid !== undefined && !isAliveProcess(pid)) {
      // It may have lost the lock to another starter: give that one the rest of the wait.
      const other = await askDaemon(paths, 'status');
      if (other) return { kind: 'started', pid: other.incarnation.pid };
    }
  }
  return { kind: 'no-answer', timeoutMs };
}

export type StopOutcome =
  | { readonly kind: 'not-running' }
  | { readonly kind: 'stopped'; readonly pid: number }
  | { readonly kind: 'still-running'; readonly pid: number; readonly timeoutMs: number };

/** Asks the daemon to stop and waits until its process is gone. */
export async function stopDaemon(paths: StatePaths, timeoutMs: number): Promise<StopOutcome> {
  const reply = await askDaemon(paths, 'stop');
  if (!reply) return { kind: 'not-running' };
  const { pid } = reply.incarnation;
  const deadline = Date.now() + timeoutMs;
  while (isAliveProcess(pid)) {
    if (Date.now() > deadline) return { kind: 'still-running', pid, timeoutMs };
    await sleep(STOP_POLL_MS);
  }
  return { kind: 'stopped', pid };
}
