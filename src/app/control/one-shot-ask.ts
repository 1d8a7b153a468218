/**
 * A one-shot `moor decisions …` command's first try: when a daemon of this
 * very build runs, it asks the daemon (whose corpus is already loaded) for
 * the one tool call and prints that answer; the daemon runs the same tool on
 * the folder as it is on disk, so the bytes are the ones a local run prints.
 * No daemon, another build, a refusal or anything unexpected: undefined, and
 * the command runs in its own process as before. A one-shot command never
 * starts a daemon.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { buildStamp } from '../../protocol/build-stamp.js';
import { type ControlHello, HELLO_VERSION } from '../../protocol/hello.js';
import type { OneShotRequest } from '../../protocol/one-shot-hello.js';
import { checkDaemonSocket, statePaths } from '../../protocol/state-dir.js';
import { IDENTITY } from '../identity.js';

/** The daemon's hello limit is 64 KiB; a request near it (hundreds of files) is answered locally. */
const MAX_REQUEST_BYTES = 60 * 1024;
/** A daemon loading a large corpus for the first time may take a while; a wedged one must not hold a hook. */
const ANSWER_TIMEOUT_MS = 10_000;

export type OneShotCall = Omit<OneShotRequest, 'build'>;

/** `MOOR_ASK_DAEMON=off` keeps one-shot commands in their own process. */
export function asksDaemon(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MOOR_ASK_DAEMON !== 'off';
}

export async function askDaemonOneShot(call: OneShotCall): Promise<CallToolResult | undefined> {
  if (!asksDaemon()) return undefined;
  let socket: string;
  try {
    ({ socket } = statePaths());
  } catch {
    return undefined;
  }
  // No socket, no daemon: the common case on a machine without one costs one lstat, not node:net.
  if (checkDaemonSocket(socket).kind === 'absent') return undefined;
  const build = buildStamp(IDENTITY.version);
  if (build === undefined) return undefined;
  const hello: ControlHello = { moor: HELLO_VERSION, control: 'one-shot', oneShot: { ...call, build } };
  if (Buffer.byteLength(JSON.stringify(hello)) > MAX_REQUEST_BYTES) return undefined;
  const { connectDaemon } = await import('../../protocol/daemon-connect.js');
  const outcome = await connectDaemon(socket, hello, ANSWER_TIMEOUT_MS);
  if (outcome.kind !== 'connected') return undefined;
  outcome.link.socket.destroy();
  const result = outcome.link.reply.oneShot?.result as CallToolResult | undefined;
  return result !== undefined && Array.isArray(result.content) ? result : undefined;
}
