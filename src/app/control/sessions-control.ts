/**
 * `moor sessions …` over the daemon's socket: one control hello
 * `{control: 'sessions', sessions: {action, prefix?}}`, one answer.
 */
import {
  HELLO_VERSION,
  type SessionsControlReply,
  type SessionsControlRequest,
} from '../../protocol/hello.js';
import { askDaemonControl, type ControlAnswer } from './control-request.js';

export type SessionsAnswer = ControlAnswer<SessionsControlReply>;

export function askDaemonSessions(
  request: SessionsControlRequest,
  timeoutMs = 3000,
): Promise<SessionsAnswer> {
  return askDaemonControl(
    { moor: HELLO_VERSION, control: 'sessions', sessions: request },
    (reply) => reply.sessions ?? { sessions: [] },
    timeoutMs,
  );
}
