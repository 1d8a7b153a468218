/**
 * Bullet-metadata records: log4brains (`- Status: accepted`) and MADR 2
 * (`* Status: accepted`), where the metadata is a list under the title.
 */
import type { FormatFields, FormatOutcome } from './format-fields.js';
import { normalizeDate, parseAffectsLine, parseFieldLines, toStringList } from './metadata.js';
import type { DecisionFormat } from './model.js';
import {
  extractRefs,
  LinkCollector,
  type RelationKind,
  relationsInStatus,
  scanRelationLines,
} from './relations.js';
import { findTitle, nextSubheading } from './text.js';

const RELATION_FIELDS: ReadonlyArray<readonly [string, RelationKind]> = [
  ['supersedes', 'supersedes'],
  ['supercedes', 'supersedes'],
  ['superseded by', 'supersededBy'],
  ['superceded by', 'supersededBy'],
  ['superseded-by', 'supersededBy'],
  ['amends', 'amends'],
  ['amended by', 'amendedBy'],
  ['amended-by', 'amendedBy'],
];

/** True when the lines under the title carry `- Status:` or `* Status:` bullets. */
export function bulletStyle(text: string, titleNext: number): '-' | '*' | null {
  const end = nextSubheading(text, titleNext);
  const m = /^([-*])\s+status\s*:/im.exec(text.slice(titleNext, end));
  return m === null ? null : m[1] === '*' ? '*' : '-';
}

export function parseBulletRecord(text: string, format: DecisionFormat): FormatOutcome {
  const title = findTitle(text);
  if (title === null) return { ok: false, reason: 'no title: expected a "# Title" heading' };
  const headerEnd = nextSubheading(text, title.next);
  const fields = parseFieldLines(text, title.next, headerEnd);
  const value = (key: string): string => fields.get(key)?.value ?? '';
  const links = new LinkCollector();
  const statusRaw = value('status');
  relationsInStatus(statusRaw, links);
  for (const [key, kind] of RELATION_FIELDS) {
    const v = fields.get(key)?.value;
    if (v !== undefined) links.addAll(kind, extractRefs(v, false));
  }
  scanRelationLines(text, title.next, text.length, links);
  const result: FormatFields = {
    format,
    title: title.text,
    statusRaw,
    superseded: links.has('supersededBy'),
    date: normalizeDate(value('date')),
    deciders: toStringList(fields.get('deciders')?.value ?? fields.get('decision-makers')?.value),
    consulted: toStringList(fields.get('consulted')?.value),
    informed: toStringList(fields.get('informed')?.value),
    tags: toStringList(fields.get('tags')?.value),
    links: links.toLinks(),
    governs: parseAffectsLine(value('affects') || value('scope')),
    body: text,
    contentStart: title.next,
  };
  return { ok: true, fields: result };
}
