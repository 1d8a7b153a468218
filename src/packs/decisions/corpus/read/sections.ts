/**
 * Finding a metadata section by name the way records title it: `## Status`,
 * `### 1. Status`, `## 🚦 Status`, `## **Status**`, or with the value on the
 * heading line itself (`## Status: Accepted`).
 */
import { lineAt, nextLineStart, nextSubheading } from './text.js';

export interface NamedSection {
  /** Offset of the section's first line after its heading. */
  readonly start: number;
  /** Offset of the next heading. */
  readonly end: number;
  /** The value written on the heading line (`## Status: Accepted` → `Accepted`), else ''. */
  readonly inline: string;
}

const HEADING_NOISE = /^#+\s*|[*_`]/g;
const LEADING_NUMBER = /^[^\p{L}]*/u;

/** The first section after `from` whose heading is `name` (case-insensitive), optionally `name: value`. */
export function findNamedSection(text: string, name: string, from = 0): NamedSection | null {
  for (let pos = nextSubheading(text, from); pos < text.length; pos = nextSubheading(text, pos)) {
    const heading = lineAt(text, pos).text.replace(HEADING_NOISE, '').replace(LEADING_NUMBER, '').trim();
    const contentStart = nextLineStart(text, pos);
    if (heading.slice(0, name.length).toLowerCase() === name) {
      const rest = heading.slice(name.length);
      const inline = /^\s*[:\-–—]\s*(.*)$/.exec(rest);
      if (rest.trim() === '' || inline !== null) {
        return {
          start: contentStart,
          end: nextSubheading(text, contentStart),
          inline: inline?.[1]?.trim() ?? '',
        };
      }
    }
    pos = contentStart;
  }
  return null;
}
