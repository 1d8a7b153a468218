/**
 * Starting and stopping the daemon from the command line: control hellos on
 * its socket, and the waits in between (until a started daemon answers, until
 * a stopped one's process is gone). Outcomes are returned; the CLI prints them.
 */
import fs from 'node:fs';
import { isAliveProcess } from '../../daemon/lock.js';
import { ensureStateDir } from '../../daemon/state.js';
import type { DaemonRunFlags } from '../../protocol/daemon-flags.js';
import { connectDaemon, spawnDaemon } from '../../protocol/daemon-link.js';
import { HELLO_VERSION, type HelloReply } from '../../protocol/hello.js';
import { liveLockOwner } from '../../protocol/process-liveness.js';
import { readStartRefusal } from '../../protocol/start-refusal.js';
import { openStateFile, type StatePaths } from '../../protocol/state-dir.js';

/** How long `start` waits for the daemon it spawned to answer. */
export const START_TIMEOUT_MS = 10_000;
const START_POLL_MS = 50;
const STOP_POLL_MS = 25;
const CONTROL_TIMEOUT_MS = 3000;
/** How much of the log's end is read for a failed start's own line. */
const LOG_TAIL_BYTES = 64 * 1024;

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
  | { readonly kind: 'already-running'; readonly pid: number; readonly version: string }
  | { readonly kind: 'started'; readonly pid: number }
  /** The daemon it spawned refused to start and said why (`start-refusal.json`). */
  | { readonly kind: 'refused'; readonly code: string; readonly message: string }
  /** The daemon it spawned exited with a failure and left no refusal: its last line in the log. */
  | { readonly kind: 'exited'; readonly exitCode: number; readonly line: string | undefined }
  | { readonly kind: 'no-answer'; readonly timeoutMs: number };

/**
 * Starts a detached `moor daemon run` with `args` unless one answers already,
 * and waits until a daemon answers. The one spawned may lose the lock to
 * another starter; then that one's answer counts. A spawned daemon that
 * refuses or fails is reported as soon as it exits (its refusal record is
 * written before it exits), never after the whole wait.
 */
export async function startDaemon(
  paths: StatePaths,
  flags: DaemonRunFlags,
  timeoutMs = START_TIMEOUT_MS,
): Promise<StartOutcome> {
  ensureStateDir(paths.dir);
  const existing = await askDaemon(paths, 'status');
  if (existing)
    return { kind: 'already-running', pid: existing.incarnation.pid, version: existing.incarnation.version };
  const logStart = sizeOf(paths.log);
  let exitCode: number | null | undefined;
  let exited: () => void = () => {};
  const exit = new Promise<void>((resolve) => {
    exited = resolve;
  });
  const pid = spawnDaemon(paths, flags, process.cwd(), (code) => {
    exitCode = code;
    exited();
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Woken by the child's exit at once, else every poll interval.
    await Promise.race([sleep(START_POLL_MS), exit]);
    const reply = await askDaemon(paths, 'status');
    if (reply) return { kind: 'started', pid: reply.incarnation.pid };
    if (pid === undefined || exitCode === undefined) continue;
    const refusal = readStartRefusal(paths.startRefusal, pid);
    if (refusal) return { kind: 'refused', code: refusal.code, message: refusal.message };
    if (exitCode !== 0)
      return { kind: 'exited', exitCode: exitCode ?? 1, line: lastMoorLine(paths.log, logStart) };
    // Exit 0: it lost the lock to another starter; give that one the rest of the wait, unless none lives.
    if (liveLockOwner(paths.lock) === undefined) {
      const other = await askDaemon(paths, 'status');
      if (other) return { kind: 'started', pid: other.incarnation.pid };
      return { kind: 'exited', exitCode: 1, line: lastMoorLine(paths.log, logStart) };
    }
  }
  return { kind: 'no-answer', timeoutMs };
}

function sizeOf(file: string): number {
  try {
    return fs.lstatSync(file).size;
  } catch {
    return 0;
  }
}

/** The last `moor: …` line the log got from `offset` on (a detached daemon's stderr is the log). */
function lastMoorLine(log: string, offset: number): string | undefined {
  const opening = openStateFile(log, fs.constants.O_RDONLY, 'read');
  if (!opening.ok) return undefined;
  try {
    const size = fs.fstatSync(opening.fd).size;
    const start = Math.max(offset, size - LOG_TAIL_BYTES);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    fs.readSync(opening.fd, buffer, 0, buffer.length, start);
    const lines = buffer.toString('utf8').split('\n');
    return lines.reverse().find((line) => line.startsWith('moor: '));
  } catch {
    return undefined;
  } finally {
    fs.closeSync(opening.fd);
  }
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
