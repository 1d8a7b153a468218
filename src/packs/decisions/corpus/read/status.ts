/**
 * Status normalization. Records say "Accepted", "approved", "Superceded by
 * [9. Foo](...)", "under review"; the rest of the pack only sees the seven
 * normalized values, with the raw text kept beside them.
 */
import type { DecisionStatus } from '../model.js';

const WORDS: Readonly<Record<string, DecisionStatus>> = {
  proposed: 'proposed',
  proposal: 'proposed',
  draft: 'proposed',
  pending: 'proposed',
  open: 'proposed',
  wip: 'proposed',
  // Enhancement-proposal processes (KEP, PEP, TEP and their kin) say where a proposal is.
  provisional: 'proposed',
  deferred: 'proposed',
  postponed: 'proposed',
  accepted: 'accepted',
  approved: 'accepted',
  adopted: 'accepted',
  done: 'accepted',
  decided: 'accepted',
  agreed: 'accepted',
  active: 'accepted',
  implementable: 'accepted',
  implementing: 'accepted',
  implemented: 'accepted',
  final: 'accepted',
  rejected: 'rejected',
  declined: 'rejected',
  refused: 'rejected',
  deprecated: 'deprecated',
  obsolete: 'deprecated',
  retired: 'deprecated',
  withdrawn: 'deprecated',
  reverted: 'deprecated',
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
  ['not accepted', 'rejected'],
  ['final comment period', 'proposed'],
];

/** Markdown decoration and brackets around a status word: `**Accepted**`, `[Accepted]`, `{Accepted}`. */
const DECORATION = /[*_`~[\]{}()<>"“”]+/g;
/** Lead-ins some records write before the word: "Status: accepted", "This decision is accepted". */
const LEAD_IN =
  /^(?:(?:current\s+|decision\s+)?status\s*(?:is\s*)?[:=\-–]?\s*|(?:this|the)\s+(?:decision|adr|record)\s+(?:is|was|has\s+been)\s+)/;
/** Adverbs of partial supersession: "Partly superseded by …". */
const PARTIAL = /^(?:partly|partially|in\s+part)\s+/;
/** Words that separate the alternatives of a template placeholder: "Accepted or Rejected", `{A|B}`. */
const ALTERNATIVES = /\||\/|\bor\b/;
const LINK_TARGET = /\]\([^)]*\)/g;
const LETTERS = /\p{L}+/gu;

export interface StatusReading {
  readonly status: DecisionStatus;
  /** The text lists several statuses to choose from (a template left unfilled): status is unknown. */
  readonly placeholder: boolean;
  /** "Partly superseded by …": the supersession covers part of the record. */
  readonly partial: boolean;
}

/** Lowercased words of the statement, decoration, emoji and lead-ins removed. */
function plain(raw: string): string {
  return raw
    .replace(DECORATION, ' ')
    .trim()
    .toLowerCase()
    .replace(/^[^\p{L}]+/u, '')
    .replace(LEAD_IN, '');
}

/** More than one status word, offered as alternatives. */
function isPlaceholder(raw: string, text: string): boolean {
  // Link targets hold slashes that separate nothing.
  if (!ALTERNATIVES.test(raw.replace(LINK_TARGET, ''))) return false;
  const seen = new Set<DecisionStatus>();
  for (const word of text.match(LETTERS) ?? []) {
    const s = WORDS[word];
    if (s !== undefined) seen.add(s);
  }
  return seen.size >= 2;
}

export function readStatus(raw: string): StatusReading {
  let text = plain(raw);
  if (text === '') return { status: 'unknown', placeholder: false, partial: false };
  if (isPlaceholder(raw, text)) return { status: 'unknown', placeholder: true, partial: false };
  const partial = PARTIAL.exec(text);
  if (partial !== null) text = text.slice(partial[0].length);
  for (const [phrase, status] of PHRASES)
    if (text.startsWith(phrase)) return { status, placeholder: false, partial: false };
  const first = /^[\p{L}]+/u.exec(text)?.[0] ?? '';
  const status = WORDS[first] ?? 'unknown';
  return { status, placeholder: false, partial: partial !== null && status === 'superseded' };
}

export function normalizeStatus(raw: string): DecisionStatus {
  return readStatus(raw).status;
}
