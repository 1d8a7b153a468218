/**
 * A status told only in a record's history: a change-log or approval
 * section whose entries start with a status word (`- [approved](…)
 * (2022-07-12)`, `**Approved** by the board …`, a `| 2022-07-12 | Accepted |`
 * row). Read only when the record states no status anywhere else.
 */
import { readDate } from './dates.js';
import { findNamedSection } from './sections.js';
import { readStatus } from './status.js';
import { nextLineStart } from './text.js';

/** Section names a history goes by, as headings write them (matched case-insensitively). */
const HISTORY_SECTIONS = [
  'changelog',
  'change log',
  'change history',
  'status history',
  'revision history',
  'history',
  'approvals',
  'approval',
  'sign-off',
  'decision log',
];

/** A sentence's end, where prose goes on after the status entry. */
const SENTENCE_END = /\.\s+(?=\p{Lu})/u;

interface Entry {
  readonly statement: string;
  readonly date: string | null;
}

function entryOf(line: string): Entry | null {
  if (line.startsWith('|')) {
    const cells = line
      .split('|')
      .map((c) => c.trim())
      .filter((c) => c !== '');
    const cell = cells.find((c) => isStatusStatement(c));
    return cell === undefined ? null : { statement: cell, date: readDate(line)?.date ?? null };
  }
  const statement = line.replace(/^[-*+]\s+|^\d+[.)]\s+/, '').split(SENTENCE_END)[0] ?? '';
  return isStatusStatement(statement) ? { statement, date: readDate(statement)?.date ?? null } : null;
}

function isStatusStatement(text: string): boolean {
  const reading = readStatus(text);
  return reading.status !== 'unknown' && !reading.placeholder;
}

/** The latest entry of the section: by date when every entry has one, else the last one written. */
function latestEntry(text: string, start: number, end: number): string {
  const entries: Entry[] = [];
  for (let pos = start; pos < end; pos = nextLineStart(text, pos)) {
    const line = text.slice(pos, Math.min(nextLineStart(text, pos), end)).trim();
    if (line === '') continue;
    const entry = entryOf(line);
    if (entry !== null) entries.push(entry);
  }
  if (entries.length === 0) return '';
  if (entries.every((e) => e.date !== null)) {
    let latest = entries[0] as Entry;
    for (const e of entries) if ((e.date as string) > (latest.date as string)) latest = e;
    return latest.statement;
  }
  return (entries[entries.length - 1] as Entry).statement;
}

/** The status statement of the record's history sections after `from`, or '' when they state none. */
export function statusFromHistory(text: string, from: number): string {
  for (const name of HISTORY_SECTIONS) {
    const section = findNamedSection(text, name, from);
    if (section === null) continue;
    const statement = latestEntry(text, section.start, section.end);
    if (statement !== '') return statement;
  }
  return '';
}
