/**
 * One control hello on the daemon's socket with a request for a `moor …`
 * command (`tasks`, `sessions`), and its answer: the daemon's reply, a
 * refusal in the reply's own error shape, or no daemon at all.
 */
import { connectDaemon, type DaemonLink } from '../../protocol/daemon-link.js';
import type { ControlHello } from '../../protocol/hello.js';
import { statePaths } from '../../protocol/state-dir.js';

/** What every control reply carries besides its answer. */
export interface ControlReplyShape {
  readonly error?: { readonly code: string; readonly message: string };
}

export type ControlAnswer<Reply extends ControlReplyShape> =
  | { readonly running: false; readonly socket: string; readonly reason: string }
  | { readonly running: true; readonly reply: Reply };

export async function askDaemonControl<Reply extends ControlReplyShape>(
  hello: ControlHello,
  read: (reply: DaemonLink['reply']) => Reply,
  timeoutMs: number,
): Promise<ControlAnswer<Reply>> {
  const { socket } = statePaths();
  const outcome = await connectDaemon(socket, hello, timeoutMs);
  if (outcome.kind === 'absent') return { running: false, socket, reason: outcome.reason };
  if (outcome.kind === 'refused') {
    // A control reply's answer fields are all optional, so the error alone is a whole reply.
    const refusal = { error: { code: outcome.code, message: outcome.message } } as Reply;
    return { running: true, reply: refusal };
  }
  outcome.link.socket.destroy();
  return { running: true, reply: read(outcome.link.reply) };
}
