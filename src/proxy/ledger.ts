/**
 * What the relay owes the client: requests waiting for an answer, open listen
 * streams, cancelled requests whose late answers must be dropped, and lines
 * queued while no daemon is connected. Bookkeeping only; no I/O.
 */
import { type Id, keyOf, type Message } from './wire.js';

/** `sentOn` of a request still queued: it never reached a daemon. */
export const NOT_SENT = 0;
/** `sentOn` of a request a daemon handed back unrun: it goes to the next daemon. */
export const FOR_NEXT_DAEMON = -1;

export interface PendingRequest {
  readonly id: Id;
  readonly method: string;
  readonly line: Buffer;
  /** The tool a tools/call names. */
  readonly tool: string | undefined;
  /** Connection generation it was written on; NOT_SENT while queued. */
  sentOn: number;
  /** A daemon that was going away refused it at the door: it never ran, so it may go to the next one. */
  notRun: boolean;
}

export interface OpenListen {
  readonly id: Id;
  readonly line: Buffer;
  /** The daemon acknowledged it with toolsListChanged honoured. */
  tools: boolean;
  /** The daemon acknowledged it with resourcesListChanged honoured. */
  resources: boolean;
  /** An acknowledgement for this id already reached the client: a replay's is swallowed. */
  acked: boolean;
  sentOn: number;
}

export interface QueuedLine {
  readonly line: Buffer;
  /** The ledger key of the request it carries, if any. */
  readonly key?: string;
}

export class RequestLedger {
  readonly pending = new Map<string, PendingRequest>();
  readonly listens = new Map<string, OpenListen>();
  /** Requests the client cancelled after they reached the daemon: their answers are dropped. */
  readonly cancelled = new Set<string>();
  /** Lines waiting for a connection, in arrival order. */
  #queue: QueuedLine[] = [];

  /** Records a request (not a listen) from the client. */
  trackRequest(key: string, message: Message & { id: Id; method: string }, line: Buffer): void {
    const tool =
      message.method === 'tools/call' && typeof message.params?.name === 'string'
        ? message.params.name
        : undefined;
    this.pending.set(key, {
      id: message.id,
      method: message.method,
      line,
      tool,
      sentOn: NOT_SENT,
      notRun: false,
    });
    this.cancelled.delete(key);
  }

  openListen(key: string, id: Id, line: Buffer): void {
    this.listens.set(key, { id, line, tools: false, resources: false, acked: false, sentOn: NOT_SENT });
  }

  enqueue(line: Buffer, key?: string): void {
    this.#queue.push(key === undefined ? { line } : { line, key });
  }

  /** Empties the queue and returns what was in it. */
  takeQueue(): QueuedLine[] {
    const queued = this.#queue;
    this.#queue = [];
    return queued;
  }

  /**
   * Offers each queued request, in order, to `answer`; one it answers (true) leaves the queue and
   * is no longer owed. Listens and notifications stay queued.
   */
  answerQueued(answer: (line: Buffer) => boolean): void {
    this.#queue = this.#queue.filter((queued) => {
      const key = queued.key;
      if (key === undefined || this.listens.has(key) || !this.pending.has(key)) return true;
      if (!answer(queued.line)) return true;
      this.pending.delete(key);
      return false;
    });
  }

  markSent(key: string, generation: number): void {
    const pending = this.pending.get(key);
    if (pending) pending.sentOn = generation;
    const listen = this.listens.get(key);
    if (listen) listen.sentOn = generation;
  }

  /**
   * The client cancelled `requestId`. Returns true when the request was still
   * queued: it is dropped and the cancellation need not reach any daemon.
   */
  cancel(requestId: Id): boolean {
    const key = keyOf(requestId);
    const pending = this.pending.get(key);
    if (pending) {
      this.pending.delete(key);
      if (pending.sentOn === NOT_SENT) {
        this.#queue = this.#queue.filter((q) => q.key !== key);
        return true;
      }
      this.cancelled.add(key);
    }
    this.listens.delete(key);
    return false;
  }

  /** Requests written to a connection other than `generation` (or handed back unrun) and not answered. */
  interruptedBefore(generation: number): Array<[string, PendingRequest]> {
    return [...this.pending.entries()].filter(([, p]) => p.sentOn !== NOT_SENT && p.sentOn !== generation);
  }

  /** Forgets everything; returns the ids still owed an answer (requests, then listens). */
  drain(): Id[] {
    const owed = [...this.pending.values()].map((p) => p.id);
    this.pending.clear();
    for (const listen of this.listens.values()) owed.push(listen.id);
    this.listens.clear();
    this.#queue = [];
    return owed;
  }
}
