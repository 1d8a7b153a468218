/**
 * The trace id of the request being served, for the whole of its work: set
 * where a request enters (the SDK handler seam, the HTTP exchange) and read
 * by the daemon's logger, so every line written while the request runs —
 * tool errors, task work it started, room and store events it caused —
 * names it without call sites passing it along. Only the trace id is kept:
 * tracestate and baggage are private and never reach a log.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TraceScope {
  readonly traceId: string;
}

const scope = new AsyncLocalStorage<TraceScope>();

/** Runs `fn` with `traceId` as the current trace (as is when there is none). */
export function runWithTrace<T>(traceId: string | undefined, fn: () => T): T {
  if (traceId === undefined) return fn();
  return scope.run({ traceId }, fn);
}

/** The current request's trace id, when it carried one. */
export function currentTraceId(): string | undefined {
  return scope.getStore()?.traceId;
}

/**
 * The current scope, to be re-entered later by work that outlives the
 * request (a task runs long after its tools/call was answered).
 */
export function captureTrace(): <T>(fn: () => T) => T {
  const store = scope.getStore();
  return store === undefined ? (fn) => scope.exit(fn) : (fn) => scope.run(store, fn);
}
