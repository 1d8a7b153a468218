/**
 * Metadata written as a Markdown table under the title: one field per row
 * (`| Status | Accepted |`) or one per column (a `| Status | Date |` header
 * over a row of values).
 */
import { nextLineStart } from './text.js';

/** Keys a metadata table is recognized by. */
const KNOWN_KEYS = new Set([
  'status',
  'date',
  'title',
  'deciders',
  'decision-makers',
  'decision makers',
  'consulted',
  'informed',
  'tags',
  'supersedes',
  'superseded by',
  'amends',
  'amended by',
  'affects',
  'scope',
  'author',
  'authors',
  'owner',
  'owners',
  'created',
  'creation date',
  'date created',
  'decided',
  'last updated',
  'updated',
]);
/** First-column headings of a field/value table (`| Field | Value |`). */
const FIELD_HEADINGS = new Set(['', 'field', 'key', 'name', 'property', 'attribute', 'metadata', 'item']);
const SEPARATOR_CELL = /^:?-{2,}:?$/;

function cellsOf(line: string): string[] {
  let body = line.trim();
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  return body.split('|').map((c) => c.trim());
}

/** `**Status:**` → `status`. */
function keyOf(cell: string): string {
  return cell
    .replace(/\*\*|__|`/g, '')
    .replace(/:\s*$/, '')
    .trim()
    .toLowerCase();
}

function readBlock(rows: string[][], out: Map<string, string>): void {
  const put = (key: string, value: string): void => {
    if (key !== '' && value !== '' && !out.has(key)) out.set(key, value);
  };
  const header = rows[0] ?? [];
  const hasSeparator = (rows[1] ?? []).every((c) => SEPARATOR_CELL.test(c)) && rows.length > 1;
  const columns = header.map(keyOf);
  // A header whose second cell is a key is a row of field names over rows of values.
  if (hasSeparator && columns.length >= 2 && KNOWN_KEYS.has(columns[1] ?? '')) {
    const values = rows[2] ?? [];
    for (const [i, key] of columns.entries()) put(key, values[i] ?? '');
    return;
  }
  const known = rows.some((r) => KNOWN_KEYS.has(keyOf(r[0] ?? '')));
  if (!known) return;
  for (const [i, row] of rows.entries()) {
    if (hasSeparator && i === 1) continue;
    if (i === 0 && hasSeparator && FIELD_HEADINGS.has(keyOf(row[0] ?? ''))) continue;
    if (row.length >= 2) put(keyOf(row[0] ?? ''), row[1] ?? '');
  }
}

/** Fields of every metadata table in text[from, to), keys lowercased; the first value of a key wins. */
export function parseTableFields(text: string, from: number, to: number): Map<string, string> {
  const out = new Map<string, string>();
  let rows: string[][] = [];
  for (let pos = from; pos <= to; ) {
    const end = Math.min(nextLineStart(text, pos), to);
    let p = pos;
    while (text.charCodeAt(p) === 0x20) p++;
    if (pos < to && text.charCodeAt(p) === 0x7c /* | */) {
      rows.push(cellsOf(text.slice(p, end)));
    } else if (rows.length > 0) {
      readBlock(rows, out);
      rows = [];
    }
    if (pos >= to) break;
    pos = end;
  }
  return out;
}
