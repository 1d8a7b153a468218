/**
 * `moor tasks …` over the daemon's socket: one control hello
 * `{control: 'tasks', tasks: {action, taskId?, sessionKey?}}`, one answer.
 * The daemon answers with DetailedTask objects plus `tool` and `owner`.
 */
import { HELLO_VERSION, type TasksControlReply, type TasksControlRequest } from '../../protocol/hello.js';
import { askDaemonControl, type ControlAnswer } from './control-request.js';

export type TasksAnswer = ControlAnswer<TasksControlReply>;

export function askDaemonTasks(request: TasksControlRequest, timeoutMs = 3000): Promise<TasksAnswer> {
  return askDaemonControl(
    { moor: HELLO_VERSION, control: 'tasks', tasks: request },
    (reply) => reply.tasks ?? { tasks: [] },
    timeoutMs,
  );
}
