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
// log4brains and dated layouts name files `20200925-title` or `2020-09-25-title`: a date, not a number.
const DATE_PREFIX = /^(?:(\d{4})(\d{2})(\d{2})|(\d{4})-(\d{2})-(\d{2}))(?:[-_. ]|$)/;
// A title number needs an ADR prefix or punctuation after it, so "2024 roadmap" stays a title.
const TITLE_NUMBER = /^\[?(?:adr[-_ #]?(\d+)\]?\s*[.:\-–—]?|(\d+)\s*(?:[.:]|\s[-–—]))\s+(\S.*)$/i;
/** A proposal's title (`KEP-1234: Snapshots`, `TEP-0023 - X`): its number, once it matches the file's. */
const TITLE_PREFIXED_NUMBER = /^([A-Z]{2,8})[-_ ]?(\d+)\s*[:.\-–—]\s+(\S.*)$/;
/** A bare leading number (`23 Use X`): stripped only when it repeats the file's own number. */
const TITLE_BARE_NUMBER = /^(\d+)\s+(\S.*)$/;
/**
 * `template.md`, `template-madr.md`, `adr-template.md`, `decision-record-template.md`: the word,
 * first, or after words naming what it is a template of. `env-in-pod-template.md` is a record.
 */
const TEMPLATE_WORD =
  /^template|^(?:(?:adr|madr|nygard|log4brains|architecture|architectural|decision|decisions|record|records|lightweight|minimal|short|long|full|bare|default|new|my|our)[-_ ]?)+template$/i;
/** What follows a real number in a template's name: the word alone, perhaps with its kind. */
const ONLY_TEMPLATE = /^(?:(?:adr|madr|decision|record)[-_ ])?template$/i;
/** A placeholder where the number goes: `XXXX-title.md`, `adr-NNN.md`, `0000.md`. */
const PLACEHOLDER_NUMBER = /^(?:adr[-_ ]?)?(?:x{3,}|n{3,})(?:[-_. ]|$)|^(?:adr[-_ ]?)?0+$/i;
const ZERO_NUMBER = /^(?:adr[-_ ]?)?0+[-_. ]/i;
const REF_NUMBER = /^(?:adr)?[-_ #]?(\d+)$/i;
/**
 * A proposal process's prefix before the number: `TEP-0023`, `KEP-1234`, `RFC 42`, `PEP 8`. In
 * capitals any such prefix counts; in lower case only a known one, so `kafka-3` stays a slug.
 */
const PREFIXED_NUMBER = /^[A-Z]{2,8}[-_ ]?#?(\d+)$/;
const KNOWN_PREFIXES = 'kep|tep|pep|rfc|rfd|aip|mep|jep|bip|eip|dep|xep';
const KNOWN_PREFIX_CI = new RegExp(`^(?:${KNOWN_PREFIXES})[-_ ]?#?(\\d+)$`, 'i');
const KNOWN_PREFIX_WORD = new RegExp(`^(?:${KNOWN_PREFIXES})$`, 'i');

export function stripMarkdownExt(name: string): string {
  return name.replace(MARKDOWN_EXT, '');
}

export function isMarkdownFile(name: string): boolean {
  return MARKDOWN_EXT.test(name);
}

/** `README.md` / `index.md`: a folder's table of contents, or the one record of a topic folder. */
export function isFolderIndexName(name: string): boolean {
  // Decision files usually start with a digit: answer those without any string work.
  const c = name.charCodeAt(0) | 0x20;
  if (c !== 0x72 && c !== 0x69) return false;
  const stem = stripMarkdownExt(name).toLowerCase();
  return stem === 'readme' || stem === 'index';
}

/** README, index and template files sit beside decisions but are not decisions. */
export function isNonDecisionFile(name: string): boolean {
  return isFolderIndexName(name) || isTemplateName(name);
}

/**
 * True when a file name marks a template. `0000-x` counts only when `x`
 * mentions a template: MADR's own first record is
 * `0000-use-markdown-architectural-decision-records.md`. A file with a real
 * number is a record whose title may well end in the word
 * (`0101-env-in-pod-template.md`): it is a template only when the word is
 * all its name says (`0001-template.md`).
 */
export function isTemplateName(fileName: string): boolean {
  const stem = stripMarkdownExt(fileName);
  if (PLACEHOLDER_NUMBER.test(stem)) return true;
  if (ZERO_NUMBER.test(stem)) return /template/i.test(stem);
  const numbered = FILE_NUMBER.exec(stem);
  if (numbered?.[1] !== undefined) return ONLY_TEMPLATE.test(numbered[2] ?? '');
  return TEMPLATE_WORD.test(stem);
}

/** The date a file name starts with (`20200925-…`, `2020-09-25-…`) as YYYY-MM-DD, or null. */
export function dateFromFileName(fileName: string): string | null {
  const m = DATE_PREFIX.exec(fileName);
  if (m === null) return null;
  const year = m[1] ?? m[4] ?? '';
  const month = Number(m[2] ?? m[5]);
  const day = Number(m[3] ?? m[6]);
  const y = Number(year);
  if (y < 1990 || y > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function identityFromFileName(fileName: string): FileIdentity {
  const stem = stripMarkdownExt(fileName);
  // The digits of a date are not a record number: the whole stem is the slug, as log4brains has it.
  if (dateFromFileName(stem) !== null) return { number: null, numberText: null, slug: stem };
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

/**
 * The title without its numbering: `21. X`, `ADR-012: X`, `ADR 12 - X`,
 * `0012 - X`, `[ADR-7] X`; `KEP-12: X` and `23 X` only when the number is
 * `fileNumber` or the file has none (so "2024 roadmap" stays a title).
 */
export function identityFromTitle(raw: string, fileNumber: number | null = null): TitleIdentity {
  const title = raw.trim();
  const m = TITLE_NUMBER.exec(title);
  const digits = m?.[1] ?? m?.[2];
  if (m !== null && digits !== undefined) {
    return { number: Number.parseInt(digits, 10), numberText: digits, title: (m[3] ?? '').trim() };
  }
  const prefixed = TITLE_PREFIXED_NUMBER.exec(title);
  if (prefixed?.[2] !== undefined) {
    const n = Number.parseInt(prefixed[2], 10);
    // Without a file number to agree with, only a known proposal prefix numbers the record ("HTTP-2: …" does not).
    if (fileNumber === null ? KNOWN_PREFIX_WORD.test(prefixed[1] ?? '') : n === fileNumber)
      return { number: n, numberText: prefixed[2], title: (prefixed[3] ?? '').trim() };
  }
  const bare = fileNumber === null ? null : TITLE_BARE_NUMBER.exec(title);
  if (bare?.[1] !== undefined && Number.parseInt(bare[1], 10) === fileNumber) {
    return { number: fileNumber, numberText: bare[1], title: (bare[2] ?? '').trim() };
  }
  return { number: null, numberText: null, title };
}

export interface ParsedRef {
  /** The reference with link syntax, anchors and quotes removed. */
  readonly text: string;
  /** The number the reference names, if it is a bare number or `ADR-n`. */
  readonly number: number | null;
  /**
   * The number after another prefix than ADR (`TEP-0023`, `RFC 42`): tried only when nothing else
   * matches, so a slug such as `kafka-3` still names its record first.
   */
  readonly prefixedNumber: number | null;
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
  const prefixed = m === null ? (PREFIXED_NUMBER.exec(text) ?? KNOWN_PREFIX_CI.exec(text)) : null;
  return {
    text,
    number: m?.[1] !== undefined ? Number.parseInt(m[1], 10) : null,
    prefixedNumber: prefixed?.[1] !== undefined ? Number.parseInt(prefixed[1], 10) : null,
    pathLike: text.includes('/') || MARKDOWN_EXT.test(text),
    label,
  };
}

/** Lowercase key used to match slugs, ids and titles regardless of case. */
export function refKey(s: string): string {
  return s.trim().toLowerCase();
}
