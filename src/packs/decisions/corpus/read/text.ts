/**
 * Small text helpers shared by the format parsers. They work on offsets into
 * one normalized string so the 65 MB corpus is not split into lines.
 */

/** Strip a UTF-8 BOM and turn CRLF / lone CR into LF. Cheap when there is nothing to do. */
export function normalizeText(src: string): string {
  const text = src.charCodeAt(0) === 0xfeff ? src.slice(1) : src;
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

export interface Line {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The line that starts at `start` (no trailing newline). */
export function lineAt(text: string, start: number): Line {
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  return { start, end, text: text.slice(start, end) };
}

/** Offset just past the end of the line containing `pos` (or text.length). */
export function nextLineStart(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl === -1 ? text.length : nl + 1;
}

export interface Heading {
  readonly text: string;
  /** Offset of the heading line. */
  readonly start: number;
  /** Offset just past the heading line. */
  readonly next: number;
}

/**
 * The first level-1 heading (`# Title`, or a setext `Title` over `===`) at
 * or after `from`, outside code fences. Decisions keep the title near the top, so this rarely scans far.
 */
export function findTitle(text: string, from = 0): Heading | null {
  let inFence = false;
  let previous = -1;
  for (let pos = from; pos < text.length; ) {
    const next = nextLineStart(text, pos);
    const c = text.charCodeAt(pos);
    if (c === 0x3d /* = */ && !inFence && previous >= 0 && /^=+[ \t]*\n?$/.test(text.slice(pos, next))) {
      // A setext heading: the line above a row of `=`.
      const title = text.slice(previous, pos).trim();
      if (title !== '') return { text: title, start: previous, next };
    }
    previous = inFence || c === 0x0a || c === 0x23 || c === 0x7c || c === 0x3e ? -1 : pos;
    if (c === 0x60 /* ` */ || c === 0x7e /* ~ */) {
      const head = text.slice(pos, pos + 3);
      if (head === '```' || head === '~~~') {
        inFence = !inFence;
        previous = -1;
      }
    } else if (!inFence && c === 0x23 /* # */ && text.charCodeAt(pos + 1) === 0x20) {
      const title = text
        .slice(pos + 2, next)
        .trim()
        .replace(/\s+#+$/, '');
      if (title !== '') return { text: title, start: pos, next };
    }
    pos = next;
  }
  return null;
}

/** Offset of the next `## ` (or deeper) heading at or after `from`, else text.length. */
export function nextSubheading(text: string, from: number): number {
  let pos = from;
  while (pos < text.length) {
    if (text.charCodeAt(pos) === 0x23 && text.charCodeAt(pos + 1) === 0x23) return pos;
    pos = nextLineStart(text, pos);
  }
  return text.length;
}

/** The `## Name` section (case-insensitive) as [start of its content, end), or null. */
export function findSection(text: string, name: string, from = 0): { start: number; end: number } | null {
  const wanted = name.toLowerCase();
  for (let pos = nextSubheading(text, from); pos < text.length; pos = nextSubheading(text, pos)) {
    const line = lineAt(text, pos);
    const heading = line.text
      .replace(/^#+\s*/, '')
      .trim()
      .toLowerCase();
    const contentStart = nextLineStart(text, pos);
    if (heading === wanted) return { start: contentStart, end: nextSubheading(text, contentStart) };
    pos = contentStart;
  }
  return null;
}

/** Split a comma-separated list, trimming and dropping empties. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A copy of `s` that does not share memory with the text it was cut from.
 * V8 keeps substrings as views into their parent, so a 40-character title
 * would otherwise keep its whole 6 KB file alive; concatenation followed by a
 * slice forces a flat copy.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

/** Most lists are empty; one shared frozen empty list saves an array per field per decision. */
export const EMPTY: readonly string[] = Object.freeze([]);

export function detachAll(list: readonly string[]): readonly string[] {
  return list.length === 0 ? EMPTY : list.map(detach);
}
