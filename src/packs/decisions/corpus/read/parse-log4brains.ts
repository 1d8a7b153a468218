/**
 * Bullet-metadata records: log4brains (`- Status: accepted`) and MADR 2
 * (`* Status: accepted`), where the metadata is a list under the title.
 */

import type { DecisionFormat } from '../model.js';
import type { FormatOutcome } from './format-fields.js';
import { parseMarkdownRecord } from './parse-nygard.js';
import { nextSubheading } from './text.js';

const STATUS_BULLET = /^([-*])\s+(?:\*\*|__)?status(?:\*\*|__)?\s*:/im;

/** True when the lines under the title carry `- Status:` or `* Status:` bullets. */
export function bulletStyle(text: string, titleNext: number): '-' | '*' | null {
  const end = nextSubheading(text, titleNext);
  const m = STATUS_BULLET.exec(text.slice(titleNext, end));
  return m === null ? null : m[1] === '*' ? '*' : '-';
}

export function parseBulletRecord(text: string, format: DecisionFormat): FormatOutcome {
  return parseMarkdownRecord(text, { format, fieldFirst: true });
}
