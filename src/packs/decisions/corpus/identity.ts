/**
 * Decision identity: the number and slug a record is known by, taken from its
 * file name (or its title when the file name has none), and the grammar of
 * references that point at a record (`0018`, `18`, `ADR-0018`, `adr-18`, a
 * slug, a path, a Markdown link).
 */

export interface FileIdentity {
  readonly number: number | null;
  /** The digits exactly as written (`00018`), or null. */
  readonly numberText: string | null;
  readonly slug: string;
}

const MARKDOWN_EXT = /\.(?:md|markdown)$/i;
const FILE_NUMBER = /^(?:adr[-_ ]?)?(\d+)(?:[-_. ]+(.*))?$/i;
// A title number needs an ADR prefix or punctuation after it, so "2024 roadmap" stays a title.
const TITLE_NUMBER = /^(?:adr[-_ ]?(\d+)\s*[.:\-–—]?|(\d+)\s*[.:])\s+(\S.*)$/i;
const REF_NUMBER = /^(?:adr)?[-_ #]?(\d+)$/i;

export function stripMarkdownExt(name: string): string {
  return name.replace(MARKDOWN_EXT, '');
}

export function isMarkdownFile(name: string): boolean {
  return MARKDOWN_EXT.test(name);
}

/** README, index and template files sit beside decisions but are not decisions. */
export function isNonDecisionFile(name: string): boolean {
  // Decision files usually start with a digit: answer those without any string work.
  const c = name.charCodeAt(0) | 0x20;
  if (c !== 0x72 && c !== 0x69 && c !== 0x74) return false;
  const stem = stripMarkdownExt(name).toLowerCase();
  return stem === 'readme' || stem === 'index' || stem.startsWith('template');
}

export function identityFromFileName(fileName: string): FileIdentity {
  const stem = stripMarkdownExt(fileName);
  const m = FILE_NUMBER.exec(stem);
  if (m?.[1] !== undefined) {
    const rest = m[2] ?? '';
    return { number: Number.parseInt(m[1], 10), numberText: m[1], slug: rest === '' ? stem : rest };
  }
  return { number: null, numberText: null, slug: stem };
}

export interface TitleIdentity {
  readonly number: number | null;
  readonly numberText: string | null;
  /** The title with any leading number removed. */
  readonly title: string;
}

export function identityFromTitle(raw: string): TitleIdentity {
  const title = raw.trim();
  const m = TITLE_NUMBER.exec(title);
  const digits = m?.[1] ?? m?.[2];
  if (m !== null && digits !== undefined) {
    return { number: Number.parseInt(digits, 10), numberText: digits, title: (m[3] ?? '').trim() };
  }
  return { number: null, numberText: null, title };
}

export interface ParsedRef {
  /** The reference with link syntax, anchors and quotes removed. */
  readonly text: string;
  /** The number the reference names, if it is a bare number or `ADR-n`. */
  readonly number: number | null;
  /** True when the reference looks like a file path (has a slash or a Markdown extension). */
  readonly pathLike: boolean;
  /** The link label when the reference was a Markdown link (`[9. Foo](0009-foo.md)`). */
  readonly label: string | null;
}

const LINK = /^\[([^\]]*)\]\(\s*<?([^)>\s]*)>?(?:\s+"[^"]*")?\s*\)$/;

export function parseRef(raw: string): ParsedRef {
  let text = raw.trim();
  let label: string | null = null;
  const link = LINK.exec(text);
  if (link !== null) {
    label = (link[1] ?? '').trim();
    text = link[2] ?? '';
  }
  text = text.replace(/^["'<]+|["'>]+$/g, '');
  const hash = text.indexOf('#');
  if (hash > 0) text = text.slice(0, hash);
  const query = text.indexOf('?');
  if (query > 0) text = text.slice(0, query);
  try {
    if (text.includes('%')) text = decodeURIComponent(text);
  } catch {
    // A stray percent sign is just part of the name.
  }
  const m = REF_NUMBER.exec(text);
  return {
    text,
    number: m?.[1] !== undefined ? Number.parseInt(m[1], 10) : null,
    pathLike: text.includes('/') || MARKDOWN_EXT.test(text),
    label,
  };
}

/** Lowercase key used to match slugs, ids and titles regardless of case. */
export function refKey(s: string): string {
  return s.trim().toLowerCase();
}
