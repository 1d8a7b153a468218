/**
 * What a deferred or background search index queues until it is read, and
 * the signature such a queue gives a stored bulk index (search-cache.ts).
 */
import { postingsSignature } from '../load/search-cache.js';
import type { Decision } from '../model.js';

/** A document waiting to be indexed. */
export interface PendingDoc {
  readonly kind: 'upsert';
  readonly decision: Decision;
  /** The body, or how to read it when the document is indexed. */
  readonly body: string | (() => string);
  readonly from: number;
  /** A hash of the record's text: with every document's, what names a stored bulk index. */
  readonly version: string | undefined;
}

/** A change waiting for the index, replayed in the order it was made. */
export type PendingOp =
  | PendingDoc
  | { readonly kind: 'remove'; readonly path: string }
  | { readonly kind: 'commit' };

export const COMMIT: PendingOp = { kind: 'commit' };

/**
 * The signature of the bulk index a queue builds, when a stored one may
 * stand in for it: the queue holds only distinct records, each with a
 * version, and then at most a commit. (The index it goes into must be empty.)
 */
export function queueSignature(queue: readonly PendingOp[]): string | undefined {
  if (queue.length === 0) return undefined;
  const docs = [];
  const paths = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const p = queue[i] as PendingOp;
    if (p.kind === 'commit' && i === queue.length - 1) break;
    if (p.kind !== 'upsert' || p.version === undefined || paths.has(p.decision.path)) return undefined;
    paths.add(p.decision.path);
    docs.push({ path: p.decision.path, version: p.version, title: p.decision.title, from: p.from });
  }
  return postingsSignature(docs);
}
