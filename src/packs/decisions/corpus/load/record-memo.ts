/**
 * What a command worked out from one record's file that it would otherwise
 * work out again on every run: `moor decisions check` reads every record to
 * find its links and review date, which is most of a hook's check on a large
 * corpus. A memo belongs to one parse of one file (its stamp): the parse
 * cache keeps it beside that entry between one-shot runs, and a changed file
 * is parsed again with an empty memo. Values are JSON and, like everything in
 * a cache, checked by whoever reads them before use.
 */
import type { Decision } from '../model.js';

export interface RecordMemo {
  /** The value stored under `key`, as JSON gave it back (unchecked), or undefined. */
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** The memo of each record a cached load made; decisions outside such a load have none. */
const memos = new WeakMap<Decision, RecordMemo>();

export function attachMemo(decision: Decision, memo: RecordMemo): void {
  memos.set(decision, memo);
}

/** The memo kept for this parse of the record's file, when a parse cache keeps one. */
export function recordMemo(decision: Decision): RecordMemo | undefined {
  return memos.get(decision);
}
