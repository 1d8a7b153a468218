/**
 * When a socket connection's room is loaded without a call asking for it.
 * Loading a corpus is one synchronous stretch of work, so a load begun while
 * the connection's first request is on its way (the room warm-up, or the
 * resource states a listen stream opens) would hold that request, a
 * tools/list that needs no corpus at all, until the last file is parsed.
 * Such loads therefore wait for the connection's first answer to be written;
 * a call that needs the room before then loads it itself, and the deferred
 * load joins that one. A connection that only listens and never asks
 * anything still gets its room: the gate also opens IDLE_OPEN_MS after it
 * starts watching.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

function isAnswer(message: JSONRPCMessage): boolean {
  return 'id' in message && ('result' in message || 'error' in message);
}

/** Long past a proxy's first request on an idle machine; short enough that a listen-only client hears changes soon. */
export const IDLE_OPEN_MS = 250;

export class FirstAnswerGate {
  #open = false;
  #waiting: Array<() => void> = [];

  get isOpen(): boolean {
    return this.#open;
  }

  /** Runs `task` once the first answer is out: at once when it already is. */
  after(task: () => void): void {
    if (this.#open) task();
    else this.#waiting.push(task);
  }

  /** Opens the gate: the waiting tasks run, in order, on the next turn of the event loop. */
  open(): void {
    if (this.#open) return;
    this.#open = true;
    const tasks = this.#waiting;
    this.#waiting = [];
    setImmediate(() => {
      for (const task of tasks) task();
    });
  }

  /** Opens after `idleOpenMs` at the latest, whatever is answered meanwhile. */
  openWhenIdle(idleOpenMs = IDLE_OPEN_MS): void {
    setTimeout(() => this.open(), idleOpenMs).unref();
  }

  /**
   * `transport`, its send extended: once the first answer has been handed to
   * the socket (written or failed), the gate opens; at the latest after `idleOpenMs`.
   */
  watch(transport: Transport, idleOpenMs = IDLE_OPEN_MS): Transport {
    this.openWhenIdle(idleOpenMs);
    const send = transport.send.bind(transport);
    transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> => {
      try {
        await send(message, options);
      } finally {
        if (!this.#open && isAnswer(message)) this.open();
      }
    };
    return transport;
  }
}
