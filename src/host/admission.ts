/**
 * The admission gate: one bound on in-flight requests across every hop
 * (socket and HTTP). Beyond it a request is refused at once rather than
 * queued, so a flood cannot wedge the daemon; when shutting down, nothing new
 * is admitted and the in-flight ones can be awaited.
 */

export const DEFAULT_MAX_IN_FLIGHT = 64;

export type Refusal = 'busy' | 'shutting-down';

/**
 * `data` of the -32050/-32051 errors on every hop: whether the request ran,
 * so a client or proxy knows what it may safely re-send.
 */
export const NOT_ADMITTED = { executed: false } as const;
export const INTERRUPTED = { executed: 'unknown' } as const;

/**
 * Whether a request takes an admission slot. Listen streams are long-lived
 * and do no work; tasks/* polls are cheap and must never wait behind (or be
 * refused for) long calls. A message without a method takes one.
 */
export function holdsAdmission(method: string | undefined): boolean {
  return method === undefined || (method !== 'subscriptions/listen' && !method.startsWith('tasks/'));
}

export class AdmissionGate {
  #inFlight = 0;
  #closed = false;
  #idleWaiters: Array<() => void> = [];

  constructor(readonly limit: number = DEFAULT_MAX_IN_FLIGHT) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** A release function when admitted (call it exactly once), else why not. */
  tryEnter(): (() => void) | Refusal {
    if (this.#closed) return 'shutting-down';
    if (this.#inFlight >= this.limit) return 'busy';
    this.#inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= 1;
      if (this.#inFlight === 0) for (const wake of this.#idleWaiters.splice(0)) wake();
    };
  }

  /** Stops admitting; resolves true when in-flight work drained within graceMs, false otherwise. */
  close(graceMs: number): Promise<boolean> {
    this.#closed = true;
    if (this.#inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), graceMs);
      this.#idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
