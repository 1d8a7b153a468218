/**
 * W3C trace context carried in a request's `_meta` (keys `traceparent`,
 * `tracestate`, `baggage`). Pure: parses and bounds, never logs. Only the
 * trace id is ever meant for logs; tracestate and baggage values are private
 * and are kept only so a later hop could propagate them.
 */

export const TRACEPARENT_KEY = 'traceparent';
export const TRACESTATE_KEY = 'tracestate';
export const BAGGAGE_KEY = 'baggage';

export const MAX_TRACESTATE_LENGTH = 512;
export const MAX_BAGGAGE_LENGTH = 8192;

export interface TraceContext {
  /** 32 lowercase hex digits, not all zeros. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zeros. */
  readonly parentId: string;
  readonly flags: string;
  readonly tracestate?: string;
  readonly baggage?: string;
}

const TRACEPARENT_V00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_PARENT_ID = '0'.repeat(16);

/** Parses a version-00 traceparent; undefined for anything else. */
export function parseTraceparent(
  value: unknown,
): Pick<TraceContext, 'traceId' | 'parentId' | 'flags'> | undefined {
  if (typeof value !== 'string' || value.length !== 55) return undefined;
  const match = TRACEPARENT_V00.exec(value);
  if (!match) return undefined;
  const [, traceId, parentId, flags] = match as unknown as [string, string, string, string];
  if (traceId === ZERO_TRACE_ID || parentId === ZERO_PARENT_ID) return undefined;
  return { traceId, parentId, flags };
}

/**
 * The trace context of a request's `_meta`, or undefined when it has no valid
 * traceparent. A tracestate or baggage that is not a string or is over its
 * bound is dropped on its own; the rest of the context survives.
 */
export function traceContextOf(meta: unknown): TraceContext | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const record = meta as Record<string, unknown>;
  const parent = parseTraceparent(record[TRACEPARENT_KEY]);
  if (!parent) return undefined;
  const tracestate = record[TRACESTATE_KEY];
  const baggage = record[BAGGAGE_KEY];
  return {
    ...parent,
    ...(typeof tracestate === 'string' && tracestate.length <= MAX_TRACESTATE_LENGTH ? { tracestate } : {}),
    ...(typeof baggage === 'string' && baggage.length <= MAX_BAGGAGE_LENGTH ? { baggage } : {}),
  };
}

/** The trace id of a JSON-RPC message's `params._meta`, when valid. */
export function traceIdOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  return traceContextOf((params as { _meta?: unknown })._meta)?.traceId;
}

/** Appends ` trace=<id>` so a request's lines can be grepped by trace (the id only; never tracestate or baggage). */
export function withTrace(message: string, traceId: string | undefined): string {
  return traceId === undefined ? message : `${message} trace=${traceId}`;
}
