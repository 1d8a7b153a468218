/**
 * Refuses a bus message heard before. A listener on the channel can send a
 * signed payload it heard once again; most messages are harmless twice, but
 * an answer replayed to a task that asks the same question again, or a list
 * change replayed to make every daemon notify its clients, is not. Each
 * sender numbers its messages; a receiver accepts a number once. NOTIFYs of
 * one daemon travel on different pooled connections, so they may arrive out
 * of order: numbers within WINDOW of the highest seen are accepted in any
 * order, older ones are refused.
 */

/** How far behind the newest number a late message may still arrive. */
export const REPLAY_WINDOW = 1024;
/** Senders remembered: daemon incarnations of a cluster, a new one at every restart. */
const MAX_SENDERS = 256;

interface Sender {
  highest: number;
  readonly seen: Set<number>;
}

export class ReplayWindow {
  readonly #senders = new Map<string, Sender>();

  /** True the first time `seq` of `from` is offered inside the window; false for a repeat or a stale one. */
  accept(from: string, seq: number): boolean {
    let sender = this.#senders.get(from);
    if (sender === undefined) {
      sender = { highest: 0, seen: new Set() };
      this.#senders.set(from, sender);
      if (this.#senders.size > MAX_SENDERS) this.#senders.delete(this.#senders.keys().next().value as string);
    }
    if (seq <= sender.highest - REPLAY_WINDOW || sender.seen.has(seq)) return false;
    sender.seen.add(seq);
    if (seq > sender.highest) sender.highest = seq;
    if (sender.seen.size > 2 * REPLAY_WINDOW) {
      for (const old of sender.seen) if (old <= sender.highest - REPLAY_WINDOW) sender.seen.delete(old);
    }
    return true;
  }
}
