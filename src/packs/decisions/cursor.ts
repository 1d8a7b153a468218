/**
 * Opaque search cursors. A cursor is bound to the query that produced it and
 * to the corpus fingerprint at the time, so a page never silently mixes two
 * versions of the corpus or two different queries.
 */
import { ToolError } from '../../errors.js';
import { Hash64 } from './corpus/lazy-crypto.js';

/** 2: the query is bound by a 64-bit hash (1 used SHA-256, which cost a one-shot search node:crypto). */
const VERSION = 2;

interface CursorBody {
  readonly v: typeof VERSION;
  readonly q: string;
  readonly f: string;
  readonly o: number;
}

export function encodeSearchCursor(queryKey: string, fingerprint: string, offset: number): string {
  const body: CursorBody = { v: VERSION, q: hashKey(queryKey), f: fingerprint, o: offset };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The offset a cursor points at; a ToolError that says what to do when it does not fit. */
export function decodeSearchCursor(cursor: string, queryKey: string, fingerprint: string): number {
  let body: Partial<CursorBody> | undefined;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
  } catch {
    body = undefined;
  }
  if (body?.v !== VERSION || typeof body.o !== 'number' || !Number.isSafeInteger(body.o) || body.o < 0) {
    throw new ToolError(
      'INVALID_CURSOR',
      'Invalid cursor: pass back nextCursor from a previous answer unchanged.',
    );
  }
  if (body.q !== hashKey(queryKey)) {
    throw new ToolError(
      'INVALID_CURSOR',
      'This cursor belongs to a different query; repeat the same query and status, or drop the cursor.',
    );
  }
  if (body.f !== fingerprint) {
    throw new ToolError(
      'INVALID_CURSOR',
      'The decision records changed since this cursor was issued; search again without a cursor.',
    );
  }
  return body.o;
}

/** Binds a cursor to its query; it only has to tell two queries apart, nobody forges one to gain anything. */
function hashKey(key: string): string {
  return new Hash64().text(key).hex();
}
