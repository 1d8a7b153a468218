/**
 * `moor sessions …` over the daemon's socket: one control hello
 * `{control: 'sessions', sessions: {action, prefix?}}`, one answer.
 */
import { connectDaemon } from '../protocol/daemon-link.js';
import { HELLO_VERSION, type SessionsControlReply, type SessionsControlRequest } from '../protocol/hello.js';
import { statePaths } from '../protocol/state-dir.js';

export type SessionsAnswer =
  | { readonly running: false; readonly socket: string; readonly reason: string }
  | { readonly running: true; readonly reply: SessionsControlReply };

export async function askDaemonSessions(
  request: SessionsControlRequest,
  timeoutMs = 3000,
): Promise<SessionsAnswer> {
  const { socket } = statePaths();
  const outcome = await connectDaemon(
    socket,
    { moor: HELLO_VERSION, control: 'sessions', sessions: request },
    timeoutMs,
  );
  if (outcome.kind === 'absent') return { running: false, socket, reason: outcome.reason };
  if (outcome.kind === 'refused')
    return { running: true, reply: { error: { code: outcome.code, message: outcome.message } } };
  outcome.link.socket.destroy();
  return { running: true, reply: outcome.link.reply.sessions ?? { sessions: [] } };
}
