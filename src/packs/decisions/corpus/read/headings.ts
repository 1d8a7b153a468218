/**
 * Headings as records write them beyond `# Title` and `## Section`: setext
 * headings (`Title` over `===`, `Section` over `---`), and records with no
 * title heading at all whose level-1 headings are their sections
 * (`# Context`, `# Decision`, `# Status`). The format parsers read a view of
 * the text in which both are plain `#` / `##` headings; the record's own text
 * is left as it is.
 */
import { findTitle, type Heading, nextLineStart } from './text.js';

/** Section names a record uses; a level-1 heading with one of them is a section, never the title. */
const SECTION_NAMES = new Set([
  'context',
  'decision',
  'status',
  'consequences',
  'background',
  'problem',
  'problem statement',
  'context and problem statement',
  'decision drivers',
  'decision outcome',
  'considered options',
  'options',
  'alternatives',
  'rationale',
  'summary',
  'motivation',
  'overview',
  'introduction',
  'abstract',
  'proposal',
  'goals',
  'discussion',
  'implications',
  'references',
  'notes',
]);

/** `## 1. Context:` → `context`: numbering, emoji, emphasis and a trailing colon do not make a title. */
function sectionKey(heading: string): string {
  return heading
    .replace(/[*_`]/g, '')
    .replace(/^[^\p{L}]+/u, '')
    .replace(/[\s:]+$/, '')
    .toLowerCase();
}

export function isSectionName(heading: string): boolean {
  if (heading.length > 40) return false;
  // Most titles start with a letter and carry no decoration: their lower case is the whole answer.
  const c = heading.charCodeAt(0) | 0x20;
  if (c >= 0x61 && c <= 0x7a && !/[*_`:]|\s$/.test(heading)) return SECTION_NAMES.has(heading.toLowerCase());
  return SECTION_NAMES.has(sectionKey(heading));
}

/** The record's title heading: the first level-1 heading, unless that names a section. */
export function findRecordTitle(text: string): Heading | null {
  const heading = findTitle(text);
  return heading === null || isSectionName(heading.text) ? null : heading;
}

export interface HeadingView {
  /** The text with setext headings written as `#` / `##`, and section H1s as `##`. */
  readonly text: string;
  /** Offset in the original text where the searchable prose starts (after the title, if any). */
  readonly contentStart: number;
}

const UNDERLINE = /^ {0,3}(?:=+|-{2,})[ \t]*$/;
/** Lines that cannot be a setext heading's text: list items, quotes, tables, ATX headings, code. */
const NOT_HEADING_TEXT = /^(?:\s{4}|\s*(?:[-*+]\s|>|\||#|```|~~~))/;

/**
 * Worth building a view: an underline row right under a line of text (a
 * thematic break follows a blank line). indexOf finds the few candidate rows
 * several times faster than a regex over the whole text.
 */
function hasUnderline(text: string, needle: string): boolean {
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
    const before = text.charCodeAt(i - 1);
    if (i === 0 || before === 0x0a || before === 0x20 || before === 0x09) continue;
    const end = text.indexOf('\n', i + 1);
    if (UNDERLINE.test(text.slice(i + 1, end === -1 ? text.length : end))) return true;
  }
  return false;
}

/**
 * The text with its headings made plain, or null when it already is;
 * `title` is the text's first level-1 heading when the caller has it. A
 * setext heading counts only after a blank line (or at the start), so a
 * `---` under a paragraph line of YAML or prose stays what it was.
 */
export function headingView(text: string, title: Heading | null = findTitle(text)): HeadingView | null {
  const demote = title !== null && isSectionName(title.text);
  if (!demote) {
    // A record with `##` sections does not mix in setext ones: found at once, that spares the scan.
    if (text.includes('\n## ')) return null;
    if (!hasUnderline(text, '\n--') && !hasUnderline(text, '\n=')) return null;
  }
  const out: string[] = [];
  let changed = false;
  let inFence = false;
  let afterBlank = true;
  for (let pos = 0; pos < text.length; ) {
    const next = nextLineStart(text, pos);
    const line = text.slice(pos, next);
    const bare = line.trimEnd();
    if (/^\s*(?:```|~~~)/.test(bare)) inFence = !inFence;
    if (!inFence && afterBlank && bare.trim() !== '' && !NOT_HEADING_TEXT.test(bare) && next < text.length) {
      const after = nextLineStart(text, next);
      const underline = text.slice(next, after).trimEnd();
      if (UNDERLINE.test(underline)) {
        const level = underline.trim().startsWith('=') && !demote ? '#' : '##';
        out.push(`${level} ${bare.trim()}\n`);
        changed = true;
        afterBlank = false;
        pos = after;
        continue;
      }
    }
    if (!inFence && demote && /^# /.test(line)) {
      out.push(`#${line}`);
      changed = true;
    } else out.push(line);
    afterBlank = bare.trim() === '';
    pos = next;
  }
  if (!changed) return null;
  return { text: out.join(''), contentStart: demote ? 0 : (title?.next ?? 0) };
}
