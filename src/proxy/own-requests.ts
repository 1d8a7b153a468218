/**
 * Requests the proxy itself sends a daemon (a replayed initialize, a fresh
 * tools/list): their answers are taken off the stream and never reach the
 * client. Ids are `moor-proxy-N`, which no client uses.
 */
import { START_WAIT_MS } from './supervisor.js';
import { keyOf, type Message } from './wire.js';

type Settle = (answer: Message | undefined) => void;

export class OwnRequests {
  readonly #waiting = new Map<string, Settle>();
  #nextNumber = 1;

  /** Writes `message` with a fresh id; resolves with the answer, or undefined after `timeoutMs` or a drop. */
  send(
    write: (line: string) => void,
    message: Message,
    timeoutMs = START_WAIT_MS,
  ): Promise<Message | undefined> {
    return this.#issue(write, message, timeoutMs).answer;
  }

  /**
   * Writes a request that stays open until the daemon ends it (a listen):
   * no timeout; `answer` is its final answer, or undefined on a drop.
   */
  open(
    write: (line: string) => void,
    message: Message,
  ): { id: string; answer: Promise<Message | undefined> } {
    return this.#issue(write, message, undefined);
  }

  #issue(
    write: (line: string) => void,
    message: Message,
    timeoutMs: number | undefined,
  ): { id: string; answer: Promise<Message | undefined> } {
    const id = `moor-proxy-${this.#nextNumber++}`;
    const key = keyOf(id);
    const answer = new Promise<Message | undefined>((resolve) => {
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.#waiting.delete(key);
              resolve(undefined);
            }, timeoutMs);
      timer?.unref();
      this.#waiting.set(key, (settled) => {
        clearTimeout(timer);
        resolve(settled);
      });
      write(JSON.stringify({ jsonrpc: '2.0', ...message, id }));
    });
    return { id, answer };
  }

  has(key: string): boolean {
    return this.#waiting.has(key);
  }

  /** Hands `answer` to the request of that key; false when it is not ours. */
  settle(key: string, answer: Message): boolean {
    const settle = this.#waiting.get(key);
    if (!settle) return false;
    this.#waiting.delete(key);
    settle(answer);
    return true;
  }

  /** The connection dropped: nothing will answer. */
  abandonAll(): void {
    for (const settle of this.#waiting.values()) settle(undefined);
    this.#waiting.clear();
  }
}
