/**
 * What `moor tasks …` and `moor sessions …` print when a control request has
 * nothing to show: no daemon (exit 3) or an error reply (exit 1), as text
 * or, with --json, as JSON on stdout.
 */
import type { ControlAnswer, ControlReplyShape } from '../app/control/control-request.js';
import { complain, say } from './output.js';

/**
 * The reply to print, or undefined once the reason there is none has been
 * printed. `notRunning` completes "the daemon is not running (socket …); ".
 */
export function replyToShow<Reply extends ControlReplyShape>(
  answer: ControlAnswer<Reply>,
  json: boolean,
  notRunning: string,
): Reply | undefined {
  if (!answer.running) {
    if (json) say(JSON.stringify({ running: false, socket: answer.socket }));
    else complain(`the daemon is not running (socket ${answer.socket}); ${notRunning}`);
    process.exitCode = 3;
    return undefined;
  }
  const { reply } = answer;
  if (reply.error) {
    if (json) say(JSON.stringify({ error: reply.error }, null, 2));
    else complain(reply.error.message);
    process.exitCode = 1;
    return undefined;
  }
  return reply;
}
