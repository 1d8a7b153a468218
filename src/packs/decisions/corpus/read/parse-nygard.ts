/**
 * Markdown records with their metadata in the text: Nygard / adr-tools
 * (`# 7. Title`, a `Date:` line, a `## Status` section whose prose is the
 * status and may carry `Superseded by [..](..)` links) and the bullet or
 * table variants (`- Status: accepted`, `| Status | Accepted |`). A record
 * without a `# Title` heading is still read; its title then comes from a
 * `Title:` field, a table, or (in parse.ts) the site navigation or file name.
 */

import type { DecisionFormat } from '../model.js';
import {
  cleanStatement,
  extractRefs,
  LinkCollector,
  parseRelationLine,
  type RelationKind,
  relationsInStatus,
  scanRelationLines,
} from '../resolve/relations.js';
import { type DateReading, readDate } from './dates.js';
import type { FormatFields, FormatOutcome } from './format-fields.js';
import { headingView } from './headings.js';
import { parseAffectsLine, readHeaderFields, toStringList } from './metadata.js';
import { parseTableFields } from './metadata-table.js';
import { findNamedSection } from './sections.js';
import { statusFromHistory } from './status-history.js';
import { findTitle, nextLineStart, nextSubheading } from './text.js';

const RELATION_FIELDS: ReadonlyArray<readonly [string, RelationKind]> = [
  ['supersedes', 'supersedes'],
  ['supercedes', 'supersedes'],
  ['superseded by', 'supersededBy'],
  ['superceded by', 'supersededBy'],
  ['superseded-by', 'supersededBy'],
  ['replaces', 'supersedes'],
  ['replaced by', 'supersededBy'],
  ['reverted by', 'supersededBy'],
  ['amends', 'amends'],
  ['amended by', 'amendedBy'],
  ['amended-by', 'amendedBy'],
];

/**
 * The status section: the statement is its first paragraph of prose (later
 * paragraphs are history or notes), relation lines anywhere in it feed
 * `links`, and a table in it is read like a header table.
 */
function readStatusSection(text: string, start: number, end: number, links: LinkCollector): string {
  const words: string[] = [];
  const relations: string[] = [];
  let paragraphDone = false;
  for (let pos = start; pos < end; pos = nextLineStart(text, pos)) {
    const line = text.slice(pos, Math.min(nextLineStart(text, pos), end)).trim();
    if (line === '') {
      // adr-tools puts relation lines in a paragraph of their own above the status word.
      if (words.length > 0) paragraphDone = true;
      continue;
    }
    if (line.startsWith('|')) continue;
    const rel = parseRelationLine(cleanStatement(line), false);
    if (rel !== null) {
      links.addAll(rel.kind, rel.refs, rel.partial);
      if (!paragraphDone) relations.push(line);
    } else if (!paragraphDone) {
      words.push(line.replace(/^[-*+]\s+/, ''));
    }
  }
  const pipe = text.indexOf('|', start);
  if (words.length === 0 && pipe !== -1 && pipe < end) {
    const table = parseTableFields(text, start, end);
    const status = table.get('status');
    if (status !== undefined) return status;
  }
  // With no status word, the relation line is the status ("Superceded by [9. Foo](..)").
  return (words.length > 0 ? words : relations).join(' ');
}

export interface MarkdownRecordOptions {
  readonly format: DecisionFormat;
  /** A `Status:` field under the title wins over a `## Status` section (bullet formats). */
  readonly fieldFirst: boolean;
}

export function parseMarkdownRecord(original: string, options: MarkdownRecordOptions): FormatOutcome {
  // Setext and section-H1 headings are read as plain ones; the body stays as written.
  const first = findTitle(original);
  const view = headingView(original, first);
  const text = view?.text ?? original;
  const title = view === null ? first : findTitle(text);
  const headStart = title?.next ?? 0;
  const headerEnd = nextSubheading(text, headStart);
  const fields = readHeaderFields(text, headStart, headerEnd);
  const value = (key: string): string => fields.get(key)?.value ?? '';
  const links = new LinkCollector();
  const section = findNamedSection(text, 'status', headStart);
  const fromSection = (): string =>
    section === null
      ? ''
      : section.inline !== ''
        ? section.inline
        : readStatusSection(text, section.start, section.end, links);
  let statusRaw: string;
  if (options.fieldFirst) {
    statusRaw = value('status');
    if (statusRaw === '') statusRaw = fromSection();
    else if (section !== null) fromSection();
  } else {
    statusRaw = fromSection();
    if (statusRaw === '') statusRaw = value('status');
  }
  // Some records tell their status only in a change-log or approval section.
  if (statusRaw === '') statusRaw = statusFromHistory(text, headStart);
  relationsInStatus(statusRaw, links);
  for (const [key, kind] of RELATION_FIELDS) {
    const v = fields.get(key)?.value;
    if (v !== undefined) links.addAll(kind, extractRefs(v, false));
  }
  scanRelationLines(text, headStart, text.length, links);
  let titleText = title?.text ?? '';
  let titleSource: FormatFields['titleSource'];
  const titleField = fields.get('title');
  if (titleText === '' && titleField !== undefined && titleField.value !== '') {
    titleText = titleField.value;
    titleSource = titleField.bullet === '|' ? 'table' : 'field';
  }
  return {
    ok: true,
    fields: {
      format: options.format,
      title: titleText,
      titleSource,
      statusRaw,
      superseded: links.has('supersededBy'),
      date: dateOf(
        text,
        headStart,
        value('date') ||
          value('decided') ||
          value('created') ||
          value('creation date') ||
          value('date created'),
        statusRaw,
      ),
      updated: updatedOf(value('last updated') || value('last-updated') || value('updated')),
      deciders: toStringList(
        value('deciders') || value('decision-makers') || value('decision makers') || undefined,
      ),
      consulted: toStringList(fields.get('consulted')?.value),
      informed: toStringList(fields.get('informed')?.value),
      tags: toStringList(fields.get('tags')?.value),
      links: links.toLinks(),
      governs: parseAffectsLine(value('affects') || value('scope')),
      body: original,
      contentStart: view?.contentStart ?? headStart,
    },
  };
}

/** The `Date:` field, else a `## Date` section, else a date in the status statement ("Accepted on 5 May 2020"). */
function dateOf(text: string, from: number, field: string, statusRaw: string): DateReading | null {
  const fromField = readDate(field);
  if (fromField !== null) return fromField;
  const section = findNamedSection(text, 'date', from);
  if (section !== null) {
    const inSection = readDate(section.inline || text.slice(section.start, section.end));
    if (inSection !== null) return inSection;
  }
  return readDate(statusRaw);
}

/** A `Last updated:` field, only when it reads one way (it never settles the corpus date order). */
function updatedOf(field: string): string | undefined {
  const reading = readDate(field);
  return reading === null || reading.dayFirst !== undefined ? undefined : reading.date;
}

export function parseNygard(text: string): FormatOutcome {
  return parseMarkdownRecord(text, { format: 'nygard', fieldFirst: false });
}
