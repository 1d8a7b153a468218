/**
 * Dates as records write them: ISO (`2018-02-05`), numeric day/month or
 * month/day (`05/02/2018`, `08/01/24`, `5.2.2018`), or with a written month
 * (`5 February 2018`, `05-Feb-2018`, `February 5, 2018`). A numeric date that reads both
 * ways is settled for the whole corpus at once (see DateOrder), never per
 * file; a value with no date in it gives null, never a guess.
 */
import type { DateOrderEvidence } from '../model.js';

export interface DateReading {
  /** ISO date; for a date that reads both ways, the month-first reading. */
  readonly date: string;
  /** Set when the date reads both ways: the day-first reading. */
  readonly dayFirst?: string;
  readonly order?: DateOrderEvidence;
}

const ISO = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/;
const NUMERIC = /(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/.-])/;
const MONTH_NAMES =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const DAY_MONTH = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?(?:\\s+|-)(?:of\\s+)?(${MONTH_NAMES})\\.?,?(?:\\s+|-)(\\d{4})\\b`,
  'i',
);
const MONTH_DAY = new RegExp(`\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i');
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function iso(year: number, month: number, day: number): string | null {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1) return null;
  // Day 0 of the next month is the last day of this one.
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function fullYear(text: string): number {
  const y = Number(text);
  // Two-digit years in decision records are this century's.
  return text.length === 2 ? 2000 + y : y;
}

function numeric(m: RegExpExecArray): DateReading | null {
  // `1.2.24` is far more often a version than a date.
  if (m[2] === '.' && (m[4] ?? '').length === 2) return null;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const year = fullYear(m[4] ?? '');
  const monthFirst = iso(year, a, b);
  const dayFirst = iso(year, b, a);
  if (monthFirst !== null && dayFirst !== null) {
    return monthFirst === dayFirst ? { date: monthFirst } : { date: monthFirst, dayFirst };
  }
  if (dayFirst !== null) return { date: dayFirst, order: 'numeric-day-first' };
  if (monthFirst !== null) return { date: monthFirst, order: 'numeric-month-first' };
  return null;
}

/** The first date in a value (a YAML scalar or a line's text), or null. */
export function readDate(value: unknown): DateReading | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value);
  // Cheap screen: every form has a digit.
  if (!/\d/.test(text)) return null;
  const isoMatch = ISO.exec(text);
  if (isoMatch !== null) {
    const d = iso(Number(isoMatch[1]), Number(isoMatch[2]), Number(isoMatch[3]));
    if (d !== null) return { date: d };
  }
  const n = NUMERIC.exec(text);
  if (n !== null) {
    const reading = numeric(n);
    if (reading !== null) return reading;
  }
  const dm = DAY_MONTH.exec(text);
  if (dm !== null) {
    const d = iso(Number(dm[3]), monthOf(dm[2] ?? ''), Number(dm[1]));
    if (d !== null) return { date: d, order: 'written-day-first' };
  }
  const md = MONTH_DAY.exec(text);
  if (md !== null) {
    const d = iso(Number(md[3]), monthOf(md[1] ?? ''), Number(md[2]));
    if (d !== null) return { date: d, order: 'written-month-first' };
  }
  return null;
}

/**
 * The order a corpus writes numeric dates in, from the evidence of all its
 * records: day-first as soon as one numeric date can only be read day-first,
 * else when day-first evidence (such dates, and written "5 February 2018")
 * outnumbers month-first; month-first otherwise.
 */
export class DateOrder {
  private readonly counts: Record<DateOrderEvidence, number> = {
    'numeric-day-first': 0,
    'numeric-month-first': 0,
    'written-day-first': 0,
    'written-month-first': 0,
  };

  count(evidence: DateOrderEvidence | undefined, delta: 1 | -1): void {
    if (evidence !== undefined) this.counts[evidence] += delta;
  }

  get dayFirst(): boolean {
    const c = this.counts;
    if (c['numeric-day-first'] > 0) return true;
    return c['written-day-first'] > c['written-month-first'] + c['numeric-month-first'];
  }
}
