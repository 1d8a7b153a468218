/**
 * Status normalization. Records say "Accepted", "approved", "Superceded by
 * [9. Foo](...)", "under review"; the rest of the pack only sees the seven
 * normalized values, with the raw text kept beside them.
 */
import type { DecisionStatus } from './model.js';

const WORDS: Readonly<Record<string, DecisionStatus>> = {
  proposed: 'proposed',
  proposal: 'proposed',
  draft: 'proposed',
  pending: 'proposed',
  open: 'proposed',
  wip: 'proposed',
  accepted: 'accepted',
  approved: 'accepted',
  adopted: 'accepted',
  done: 'accepted',
  decided: 'accepted',
  agreed: 'accepted',
  active: 'accepted',
  implemented: 'accepted',
  rejected: 'rejected',
  declined: 'rejected',
  refused: 'rejected',
  deprecated: 'deprecated',
  obsolete: 'deprecated',
  retired: 'deprecated',
  withdrawn: 'deprecated',
  superseded: 'superseded',
  superceded: 'superseded',
  replaced: 'superseded',
  amended: 'amended',
};

const PHRASES: ReadonlyArray<readonly [string, DecisionStatus]> = [
  ['under review', 'proposed'],
  ['in review', 'proposed'],
  ['in progress', 'proposed'],
  ['in discussion', 'proposed'],
  ['work in progress', 'proposed'],
];

/** Strip Markdown emphasis, code and bullets so `**Accepted**` reads as `accepted`. */
function plain(raw: string): string {
  return raw
    .replace(/[*_`~]/g, '')
    .replace(/^[\s>\-+]+/, '')
    .trim()
    .toLowerCase();
}

export function normalizeStatus(raw: string): DecisionStatus {
  const text = plain(raw);
  if (text === '') return 'unknown';
  for (const [phrase, status] of PHRASES) if (text.startsWith(phrase)) return status;
  const first = /^[\p{L}]+/u.exec(text)?.[0] ?? '';
  return WORDS[first] ?? 'unknown';
}
