/**
 * Nygard / adr-tools records: `# 7. Title`, a `Date:` line, a `## Status`
 * section whose prose is the status and may carry `Superseded by [..](..)`
 * (or adr-tools' `Superceded by`) links, and an optional `Affects:` line.
 */
import type { FormatOutcome } from './format-fields.js';
import { normalizeDate, parseAffectsLine, parseFieldLines, toStringList } from './metadata.js';
import { LinkCollector, parseRelationLine, scanRelationLines } from './relations.js';
import { findSection, findTitle, nextLineStart, nextSubheading } from './text.js';

/** The status section's prose: relation lines feed `links`, the rest is the status text. */
function readStatusSection(text: string, start: number, end: number, links: LinkCollector): string {
  const words: string[] = [];
  const relations: string[] = [];
  for (let pos = start; pos < end; pos = nextLineStart(text, pos)) {
    const line = text.slice(pos, Math.min(nextLineStart(text, pos), end)).trim();
    if (line === '') continue;
    const rel = parseRelationLine(line, false);
    if (rel !== null) {
      links.addAll(rel.kind, rel.refs);
      relations.push(line);
    } else {
      words.push(line);
    }
  }
  // With no status word, the relation line is the status ("Superceded by [9. Foo](..)").
  return (words.length > 0 ? words : relations).join(' ');
}

export function parseNygard(text: string): FormatOutcome {
  const title = findTitle(text);
  if (title === null) return { ok: false, reason: 'no title: expected a "# 7. Title" heading' };
  const headerEnd = nextSubheading(text, title.next);
  const fields = parseFieldLines(text, title.next, headerEnd);
  const links = new LinkCollector();
  const section = findSection(text, 'status', title.next);
  let statusRaw = '';
  if (section !== null) statusRaw = readStatusSection(text, section.start, section.end, links);
  else statusRaw = fields.get('status')?.value ?? '';
  scanRelationLines(text, title.next, text.length, links);
  return {
    ok: true,
    fields: {
      format: 'nygard',
      title: title.text,
      statusRaw,
      superseded: links.has('supersededBy'),
      date: normalizeDate(fields.get('date')?.value),
      deciders: toStringList(fields.get('deciders')?.value),
      consulted: toStringList(fields.get('consulted')?.value),
      informed: toStringList(fields.get('informed')?.value),
      tags: toStringList(fields.get('tags')?.value),
      links: links.toLinks(),
      governs: parseAffectsLine(fields.get('affects')?.value ?? ''),
      body: text,
      contentStart: title.next,
    },
  };
}
