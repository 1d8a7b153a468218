/**
 * MADR records: YAML front matter (status, date, deciders, relations,
 * governed paths) followed by a `# Title`. Broken front matter is reported,
 * never thrown.
 */
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml';
import {
  LinkCollector,
  type RelationKind,
  relationsInStatus,
  scanRelationLines,
} from '../resolve/relations.js';
import { type DateReading, readDate } from './dates.js';
import type { FormatFields, FormatOutcome } from './format-fields.js';
import { findRecordTitle } from './headings.js';
import { toGlobList, toStringList } from './metadata.js';
import { parseMarkdownRecord } from './parse-nygard.js';
import { readSimpleFrontMatter } from './simple-front-matter.js';
import { nextLineStart } from './text.js';

const RELATION_KEYS: ReadonlyArray<readonly [string, RelationKind]> = [
  ['supersedes', 'supersedes'],
  ['supercedes', 'supersedes'],
  ['superseded-by', 'supersededBy'],
  ['superseded_by', 'supersededBy'],
  ['supersededBy', 'supersededBy'],
  ['superceded-by', 'supersededBy'],
  ['replaces', 'supersedes'],
  ['replaced-by', 'supersededBy'],
  ['replaced_by', 'supersededBy'],
  ['reverted-by', 'supersededBy'],
  ['reverted_by', 'supersededBy'],
  ['amends', 'amends'],
  ['amended-by', 'amendedBy'],
  ['amended_by', 'amendedBy'],
  ['amendedBy', 'amendedBy'],
];

/** Keys a creation date goes by, in order of preference: the first that holds a date is the record's date. */
const CREATED_KEYS = [
  'date',
  'creation-date',
  'creation_date',
  'created',
  'date-created',
  'date_created',
  'created-at',
  'created_at',
];
const UPDATED_KEYS = [
  'last-updated',
  'last_updated',
  'lastUpdated',
  'updated',
  'last-modified',
  'date-updated',
];

function firstDate(fm: Record<string, unknown>, keys: readonly string[]): DateReading | null {
  for (const key of keys) {
    const reading = readDate(fm[key]);
    if (reading !== null) return reading;
  }
  return null;
}

/** An update date is kept only when it reads one way: it never takes part in settling the corpus order. */
function updatedOf(fm: Record<string, unknown>): string | undefined {
  const reading = firstDate(fm, UPDATED_KEYS);
  return reading === null || reading.dayFirst !== undefined ? undefined : reading.date;
}

export function hasFrontMatter(text: string): boolean {
  return (
    text.startsWith('---') &&
    (text.charCodeAt(3) === 0x0a || text.slice(3, nextLineStart(text, 0)).trim() === '')
  );
}

/** Offsets of the YAML inside the fences and of the first line after the closing fence. */
function splitFrontMatter(text: string): { yamlEnd: number; bodyStart: number } | null {
  const yamlStart = nextLineStart(text, 0);
  for (let pos = yamlStart; pos < text.length; pos = nextLineStart(text, pos)) {
    if (text.charCodeAt(pos) !== 0x2d && text.charCodeAt(pos) !== 0x2e) continue;
    const line = text.slice(pos, nextLineStart(text, pos)).trimEnd();
    if (line === '---' || line === '...') return { yamlEnd: pos, bodyStart: nextLineStart(text, pos) };
  }
  return null;
}

/** The Markdown after the front matter (all of it when there is none or it is never closed). */
export function stripFrontMatter(text: string): string {
  if (!hasFrontMatter(text)) return text;
  const fence = splitFrontMatter(text);
  return fence === null ? text : text.slice(fence.bodyStart);
}

function yamlError(err: unknown): string {
  if (err instanceof YAMLException) {
    // +2: one for 1-based lines, one for the opening fence.
    const line = err.mark !== undefined ? ` (line ${err.mark.line + 2}, column ${err.mark.column + 1})` : '';
    return `front matter is not valid YAML: ${err.reason}${line}`;
  }
  return `front matter could not be read: ${String(err)}`;
}

function scalar(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}

export function parseMadr(text: string): FormatOutcome {
  const fence = splitFrontMatter(text);
  if (fence === null) return { ok: false, reason: 'front matter opened with --- on line 1 is never closed' };
  const yaml = text.slice(nextLineStart(text, 0), fence.yamlEnd);
  // The usual one-key-per-line form without js-yaml; anything else (and every error) through it.
  let data: unknown = readSimpleFrontMatter(yaml);
  if (data === undefined) {
    try {
      data = load(yaml, { schema: CORE_SCHEMA });
    } catch (err) {
      return { ok: false, reason: yamlError(err) };
    }
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, reason: 'front matter is not a YAML mapping of keys to values' };
  }
  const fm = data as Record<string, unknown>;
  const body = text.slice(fence.bodyStart);
  // A level-1 `# Context` is a section: the title is then the front matter's, or found in the text.
  const heading = findRecordTitle(body);
  const fmTitle = scalar(fm.title).trim();
  let title = fmTitle || heading?.text || '';
  let titleSource: FormatFields['titleSource'] =
    fmTitle !== '' && heading === null ? 'front-matter' : undefined;
  const links = new LinkCollector();
  let statusRaw = scalar(fm.status).trim();
  let date = firstDate(fm, CREATED_KEYS);
  let updated = updatedOf(fm);
  let deciders = toStringList(fm.deciders ?? fm['decision-makers'] ?? fm.decision_makers);
  relationsInStatus(statusRaw, links);
  for (const [key, kind] of RELATION_KEYS) links.addAll(kind, toStringList(fm[key]));
  const contentStart = heading?.next ?? 0;
  if (statusRaw === '') {
    // Front matter for a site generator (title, nav order) over a record that keeps its metadata in the text.
    const inBody = parseMarkdownRecord(body, { format: 'madr', fieldFirst: true });
    if (inBody.ok) {
      const f = inBody.fields;
      statusRaw = f.statusRaw;
      if (title === '' && f.title !== '') {
        title = f.title;
        titleSource = f.titleSource;
      }
      date ??= f.date;
      updated ??= f.updated;
      if (deciders.length === 0) deciders = [...f.deciders];
      for (const kind of ['supersedes', 'supersededBy', 'amends', 'amendedBy'] as const) {
        const partial = f.links.partial ?? [];
        for (const ref of f.links[kind]) links.add(kind, ref, partial.includes(ref));
      }
    }
  } else {
    scanRelationLines(body, contentStart, body.length, links);
  }
  return {
    ok: true,
    fields: {
      format: 'madr',
      title,
      titleSource,
      statusRaw,
      superseded: links.has('supersededBy'),
      date,
      updated,
      deciders,
      consulted: toStringList(fm.consulted),
      informed: toStringList(fm.informed),
      tags: toStringList(fm.tags),
      links: links.toLinks(),
      governs: toGlobList(fm.affects ?? fm.scope ?? fm.governs ?? fm.paths),
      body,
      contentStart,
    },
  };
}
