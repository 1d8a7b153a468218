/**
 * Coercion of loosely written metadata (YAML values, `Key: value` lines) into
 * the shapes the Decision model wants: string lists, governed-path globs and
 * ISO dates.
 */
import { readDate } from './dates.js';
import { parseTableFields } from './metadata-table.js';
import { nextLineStart, splitList } from './text.js';

/** A YAML scalar or list, or a comma-separated string, as a list of strings. */
export function toStringList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') {
        const s = String(item).trim();
        if (s !== '') out.push(s);
      }
    }
    return out;
  }
  if (typeof value === 'string') return splitList(value);
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  return [];
}

function isQuote(c: number): boolean {
  return c === 0x22 || c === 0x27;
}

/** `./a/**` → `a/**`, `/a` → `a`, `!./b` → `!b`. Globs are relative to the workspace root. */
export function normalizeGlob(raw: string): string {
  let g = raw.trim();
  // Most globs are unquoted: the regex only runs when an end is a quote.
  if (isQuote(g.charCodeAt(0)) || isQuote(g.charCodeAt(g.length - 1))) g = g.replace(/^["']|["']$/g, '');
  const negated = g.startsWith('!');
  if (negated) g = g.slice(1).trim();
  if (g.toLowerCase().startsWith('path:')) g = g.slice(5);
  while (g.startsWith('./')) g = g.slice(2);
  while (g.startsWith('/')) g = g.slice(1);
  return g === '' ? '' : negated ? `!${g}` : g;
}

/**
 * An `Affects:` line value: `path:a/** path:!b/**` or `path:a/**, path:b.ts`.
 * Without any `path:` token every token is taken as a glob.
 */
export function parseAffectsLine(value: string): string[] {
  const tokens = value.split(/[\s,]+/).filter((t) => t !== '');
  const tagged = tokens.filter((t) => t.toLowerCase().startsWith('path:'));
  const chosen = tagged.length > 0 ? tagged : tokens.filter((t) => !/^[a-z]+:/i.test(t));
  return chosen.map(normalizeGlob).filter((g) => g !== '' && g !== '!');
}

function globFromEntry(entry: unknown): string | null {
  if (typeof entry === 'string') return normalizeGlob(entry);
  if (entry !== null && typeof entry === 'object') {
    const o = entry as Record<string, unknown>;
    const pattern = o.path ?? o.pattern ?? o.glob;
    if (typeof pattern !== 'string') return null;
    const g = normalizeGlob(pattern);
    return o.negate === true && !g.startsWith('!') ? `!${g}` : g;
  }
  return null;
}

/** Front-matter `affects` / `scope`: a string, a list of strings, or a list of `{path: glob}` objects. */
export function toGlobList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') return parseAffectsLine(value);
  const entries = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const entry of entries) {
    const g = globFromEntry(entry);
    if (g !== null && g !== '' && g !== '!' && !out.includes(g)) out.push(g);
  }
  return out;
}

/** The ISO date in a value when it reads one way only (`2016-01-04`, `5 February 2018`), else null. */
export function normalizeDate(value: unknown): string | null {
  return readDate(value)?.date ?? null;
}

export interface FieldLine {
  readonly key: string;
  readonly value: string;
  /** `-`, `*` or '' for a bare `Key: value` line, `|` for a metadata table cell. */
  readonly bullet: string;
}

// `Status: x`, `- Status: x`, `**Status:** x`, `- **Status**: x`.
const FIELD =
  /^(?:([-*])\s+)?(?:\*\*|__)?([A-Za-z][A-Za-z -]{0,30}?)\s*(?:(?:\*\*|__)\s*:|:\s*(?:\*\*|__)?)\s*(.*)$/;

/**
 * `- Status: accepted` / `* Deciders: a, b` / `Date: 2016-01-04` lines in
 * text[from, to). Keys are lowercased. The first occurrence of a key wins.
 */
export function parseFieldLines(text: string, from: number, to: number): Map<string, FieldLine> {
  const out = new Map<string, FieldLine>();
  for (let pos = from; pos < to; pos = nextLineStart(text, pos)) {
    const end = Math.min(nextLineStart(text, pos), to);
    const m = FIELD.exec(text.slice(pos, end).trimEnd());
    if (m === null) continue;
    const key = (m[2] ?? '').trim().toLowerCase();
    if (!out.has(key)) out.set(key, { key, value: (m[3] ?? '').trim(), bullet: m[1] ?? '' });
  }
  return out;
}

/** Field lines and metadata tables in text[from, to); a field line wins over a table cell. */
export function readHeaderFields(text: string, from: number, to: number): Map<string, FieldLine> {
  const fields = parseFieldLines(text, from, to);
  // Tables start with a pipe; most headers have none, so skip the table reader then.
  const pipe = text.indexOf('|', from);
  if (pipe !== -1 && pipe < to) {
    for (const [key, value] of parseTableFields(text, from, to))
      if (!fields.has(key)) fields.set(key, { key, value, bullet: '|' });
  }
  return fields;
}
