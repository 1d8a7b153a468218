/**
 * The decision corpus as the rest of the pack sees it: parsed records, the
 * problems found while parsing, and the supersession graph. Everything here is
 * plain data so it can be rendered identically on every era and every hop.
 */

export type DecisionFormat = 'madr' | 'nygard' | 'log4brains';

/** Normalized lifecycle status; the raw text is kept beside it. */
export type DecisionStatus =
  | 'proposed'
  | 'accepted'
  | 'rejected'
  | 'deprecated'
  | 'superseded'
  | 'amended'
  | 'unknown';

/** A relation as written in a record: the raw reference text (a number, `ADR-7`, a relative link). */
export interface RelationRef {
  readonly ref: string;
}

export interface DecisionLinks {
  readonly supersedes: readonly string[];
  readonly supersededBy: readonly string[];
  readonly amends: readonly string[];
  readonly amendedBy: readonly string[];
}

export interface Decision {
  /** Stable display id: the number as written in the file name (e.g. `0018`), or the slug when unnumbered. */
  readonly id: string;
  readonly number: number | null;
  readonly slug: string;
  /** Path relative to the workspace root, POSIX separators. */
  readonly path: string;
  /** Path relative to the corpus directory, POSIX separators. */
  readonly corpusPath: string;
  readonly title: string;
  readonly status: DecisionStatus;
  readonly statusRaw: string;
  /** ISO date (YYYY-MM-DD) when one was given, else null. */
  readonly date: string | null;
  readonly deciders: readonly string[];
  readonly consulted: readonly string[];
  readonly informed: readonly string[];
  readonly tags: readonly string[];
  readonly format: DecisionFormat;
  readonly links: DecisionLinks;
  /** Governed-path globs relative to the workspace root; a leading `!` negates. */
  readonly governs: readonly string[];
  /**
   * Markdown body without front matter. In a loaded corpus this is a getter
   * that reads the file (through a small cache) instead of holding 65 MB of
   * text in memory; it is not an own property, so copy it explicitly rather
   * than relying on `{ ...decision }`.
   */
  readonly body: string;
}

/**
 * `skipped`: a Markdown file that is not read as a decision for a reason other
 * than being a README/index/template (too large, unreadable, a symlink that
 * leaves the workspace). Reported so nothing disappears silently.
 */
export type ProblemKind =
  | 'unparseable'
  | 'dangling'
  | 'ambiguous'
  | 'cycle'
  | 'duplicate-number'
  | 'unknown-status'
  | 'skipped';

export interface Problem {
  /** Path relative to the workspace root. */
  readonly path: string;
  readonly kind: ProblemKind;
  readonly message: string;
}

export type EdgeState = 'resolved' | 'dangling' | 'ambiguous' | 'cycle';

/** `from` supersedes `to`. Either side may have declared it. */
export interface SupersessionEdge {
  /** id of the superseding decision, or the raw ref when it could not be resolved. */
  readonly from: string;
  readonly to: string;
  readonly fromPath: string | null;
  readonly toPath: string | null;
  readonly state: EdgeState;
  /** Which record(s) declared the edge. */
  readonly declaredBy: readonly string[];
  /** For ambiguous edges: every candidate path. */
  readonly candidates?: readonly string[];
}
