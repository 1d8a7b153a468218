/**
 * What a format parser extracts from one record before identity and status
 * normalization turn it into a Decision. Shared by the three format parsers.
 */

import type { DecisionFormat, DecisionLinks, TitleSource } from '../model.js';
import type { DateReading } from './dates.js';

export interface FormatFields {
  readonly format: DecisionFormat;
  /** The title as written, possibly still carrying a number (`7. Use X`); '' when the record has none. */
  readonly title: string;
  /** Where the title came from when not a `# Title` heading. */
  readonly titleSource?: TitleSource | undefined;
  readonly statusRaw: string;
  /** Set when the record's relations settle the status regardless of the status word. */
  readonly superseded: boolean;
  readonly date: DateReading | null;
  /** ISO date of the last update, when the record gives one apart from its date. */
  readonly updated?: string | undefined;
  readonly deciders: readonly string[];
  readonly consulted: readonly string[];
  readonly informed: readonly string[];
  readonly tags: readonly string[];
  readonly links: DecisionLinks;
  readonly governs: readonly string[];
  /** Markdown without front matter. */
  readonly body: string;
  /** Offset in `body` after the title line, where the searchable prose starts. */
  readonly contentStart: number;
}

export type FormatOutcome =
  | { readonly ok: true; readonly fields: FormatFields }
  | { readonly ok: false; readonly reason: string };
