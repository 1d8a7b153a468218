/**
 * What the check keeps in a record's memo (corpus/load/record-memo.ts)
 * between one-shot runs: the record's links and review date, and the lines its
 * findings point at. Both follow from the file's text alone, which the memo's
 * parse stands for; which link targets exist and which day it is are looked
 * up on every check. A stored value of the wrong shape is not used (the check
 * reads the file again and replaces it).
 */
import type { RecordMemo } from './corpus/load/record-memo.js';
import type { RepositoryLink } from './record-links.js';
import type { ReviewDate } from './record-review.js';

/** What a record's text gives the check, whichever files exist and whatever day it is. */
export interface RecordMarks {
  readonly review: ReviewDate | null;
  readonly links: readonly RepositoryLink[];
}

const MARKS = 'check-marks';
const LINES = 'check-lines';

/** The marks stored for this record when they were made for the same decision folder. */
export function storedMarks(memo: RecordMemo | undefined, folder: string): RecordMarks | undefined {
  const stored = memo?.get(MARKS) as { folder?: unknown; review?: unknown; links?: unknown } | undefined;
  if (typeof stored !== 'object' || stored === null || stored.folder !== folder) return undefined;
  const { review, links } = stored;
  if (!(review === null || isReview(review))) return undefined;
  if (!Array.isArray(links) || !links.every(isLink)) return undefined;
  return { review, links };
}

export function storeMarks(memo: RecordMemo | undefined, folder: string, marks: RecordMarks): void {
  memo?.set(MARKS, { folder, review: marks.review, links: marks.links });
}

/** The line stored for a finding's needles (`key`): a line, null (none), or undefined (not stored). */
export function storedLine(memo: RecordMemo | undefined, key: string): number | null | undefined {
  const lines = memo?.get(LINES);
  if (typeof lines !== 'object' || lines === null || Array.isArray(lines)) return undefined;
  const line = (lines as Record<string, unknown>)[key];
  return line === null || isLine(line) ? line : undefined;
}

export function storeLine(memo: RecordMemo | undefined, key: string, line: number | null): void {
  if (memo === undefined) return;
  const lines = memo.get(LINES);
  const known = typeof lines === 'object' && lines !== null && !Array.isArray(lines) ? lines : {};
  memo.set(LINES, { ...known, [key]: line });
}

function isLine(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

function isReview(value: unknown): value is ReviewDate {
  if (typeof value !== 'object' || value === null) return false;
  const { date, line } = value as { date?: unknown; line?: unknown };
  return typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) && isLine(line);
}

function isLink(value: unknown): value is RepositoryLink {
  if (typeof value !== 'object' || value === null) return false;
  const { target, rel, line } = value as { target?: unknown; rel?: unknown; line?: unknown };
  return typeof target === 'string' && typeof rel === 'string' && isLine(line);
}
