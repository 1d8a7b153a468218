/**
 * When a record says it must be looked at again: front matter `review-by` /
 * `review_date` (and their spellings), a `Review by: 2026-01-31` line, or a
 * `| Review by | 2026-01-31 |` table row. Read from the file as written (the
 * parsed record drops its front matter), so the line can be pointed at.
 */

export interface ReviewDate {
  /** ISO date YYYY-MM-DD. */
  readonly date: string;
  /** 1-based line it is written on. */
  readonly line: number;
}

const ISO = /(\d{4})[-/](\d{2})[-/](\d{2})/;
const FRONT_MATTER_KEY = /^\s*review[-_ ]?(?:by|date|on|after)\s*:\s*["']?([^"'\n]*)/i;
// `Review by: …`, `- **Review date:** …`, `* Review-by: …`: a field line of the body.
const FIELD_LINE =
  /^\s*(?:[-*+]\s+)?(?:\*\*|__)?review[-_ ]?(?:by|date)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*(.*)$/i;
const TABLE_ROW = /^\s*\|\s*(?:\*\*)?review[-_ ]?(?:by|date)(?:\*\*)?\s*\|\s*([^|]*)\|/i;

function isoOf(text: string): string | null {
  const m = ISO.exec(text);
  if (m === null) return null;
  const [month, day] = [Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

/** The record's review date, or null when it gives none (or none that reads as a date). */
export function reviewDateOf(lines: readonly string[]): ReviewDate | null {
  let i = 0;
  if (lines[0]?.trim() === '---') {
    for (i = 1; i < lines.length && lines[i]?.trim() !== '---'; i++) {
      const m = FRONT_MATTER_KEY.exec(lines[i] as string);
      const date = m?.[1] === undefined ? null : isoOf(m[1]);
      if (date !== null) return { date, line: i + 1 };
    }
    i += 1;
  }
  let fenced = false;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = FIELD_LINE.exec(line) ?? TABLE_ROW.exec(line);
    const date = m?.[1] === undefined ? null : isoOf(m[1]);
    if (date !== null) return { date, line: i + 1 };
  }
  return null;
}

/** Today as YYYY-MM-DD in UTC: a review date passes at the same moment everywhere. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
