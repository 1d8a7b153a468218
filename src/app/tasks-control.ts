/**
 * `moor tasks …` over the daemon's socket: one control hello
 * `{control: 'tasks', tasks: {action, taskId?, sessionKey?}}`, one answer.
 * The daemon answers with DetailedTask objects plus `tool` and `owner`.
 */

import { connectDaemon } from '../protocol/daemon-link.js';
import { HELLO_VERSION, type TasksControlReply, type TasksControlRequest } from '../protocol/hello.js';
import { statePaths } from '../protocol/state-dir.js';

export type TasksAnswer =
  | { readonly running: false; readonly socket: string; readonly reason: string }
  | { readonly running: true; readonly reply: TasksControlReply };

export async function askDaemonTasks(request: TasksControlRequest, timeoutMs = 3000): Promise<TasksAnswer> {
  const { socket } = statePaths();
  const outcome = await connectDaemon(
    socket,
    { moor: HELLO_VERSION, control: 'tasks', tasks: request },
    timeoutMs,
  );
  if (outcome.kind === 'absent') return { running: false, socket, reason: outcome.reason };
  if (outcome.kind === 'refused')
    return { running: true, reply: { error: { code: outcome.code, message: outcome.message } } };
  outcome.link.socket.destroy();
  return { running: true, reply: outcome.link.reply.tasks ?? { tasks: [] } };
}
