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
  /**
   * Refs in `supersedes` / `supersededBy` that the record declared partial
   * ("Partly superseded by …", "supersedes some aspects of 15"). Absent when none.
   */
  readonly partial?: readonly string[];
}

/** How the title was found when the record has no `# Title` heading. */
export type TitleSource = 'front-matter' | 'field' | 'table' | 'nav' | 'file-name';

/**
 * What one record's date says about the order its corpus writes numeric
 * dates in: `numeric` evidence is a date that reads only one way
 * (`25/02/2018`), `written` evidence a written month (`5 February 2018` is
 * day-first, `February 5, 2018` month-first).
 */
export type DateOrderEvidence =
  | 'numeric-day-first'
  | 'numeric-month-first'
  | 'written-day-first'
  | 'written-month-first';

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
  /**
   * ISO date (YYYY-MM-DD) when one was given, else null (never the file's
   * mtime). A numeric date that reads both ways (`05/02/2018`) follows the
   * order its corpus uses; see `dateReadings`.
   */
  readonly date: string | null;
  /** Both readings of a numeric date that reads both ways; the corpus sets `date` to one of them. */
  readonly dateReadings?: { readonly monthFirst: string; readonly dayFirst: string };
  readonly dateOrder?: DateOrderEvidence;
  /** ISO date the record says it was last updated (`last-updated:`), when it says so. */
  readonly updated?: string;
  /** Set when the title did not come from a `# Title` heading. */
  readonly titleSource?: TitleSource;
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
 * `no-decisions`: the folder holds Markdown files but not one of them is a
 * decision (its path is the folder's). `skipped`: a Markdown file that is not read as a decision for a reason other
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
  | 'skipped'
  | 'no-decisions';

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
  /** A declaring side said the relation covers only part of the record ("Partly superseded by"). */
  readonly partial?: true;
}

/** `from` amends `to`: merged from both sides and resolved like supersession, never a cycle. */
export type AmendmentEdge = SupersessionEdge;

/** Why a Markdown file in the folder is deliberately not read as a decision. */
export type SkipReason = 'template' | 'table of contents';

export interface SkippedFile {
  /** Path relative to the workspace root. */
  readonly path: string;
  readonly reason: SkipReason;
}
