/**
 * One file in, one Decision (or a precise problem) out. Picks the format,
 * then applies identity and status normalization common to all formats.
 */
import type { FormatOutcome } from './format-fields.js';
import { identityFromFileName, identityFromTitle } from './identity.js';
import { type BodySource, LazyDecision } from './lazy-decision.js';
import type { Decision, DecisionLinks, DecisionStatus, Problem } from './model.js';
import { bulletStyle, parseBulletRecord } from './parse-log4brains.js';
import { hasFrontMatter, parseMadr } from './parse-madr.js';
import { parseNygard } from './parse-nygard.js';
import { normalizeStatus } from './status.js';
import { detach, detachAll, EMPTY, findTitle, normalizeText } from './text.js';

export interface ParseInput {
  /** Raw file content. */
  readonly text: string;
  /** Workspace-relative POSIX path. */
  readonly path: string;
  /** Corpus-relative POSIX path. */
  readonly corpusPath: string;
  /**
   * When given, the decision reads its body from here when asked instead of
   * holding the text: the corpus keeps 65 MB of bodies on disk, not in memory.
   */
  readonly lazyBody?:
    | { readonly source: BodySource; readonly readPath: string; readonly stamp: string }
    | undefined;
}

export interface ParseResult {
  readonly decision: Decision | null;
  readonly problems: Problem[];
  /** The body as read now (front matter removed), for the search index. */
  readonly body: string;
  /** Offset in `body` after the title line: the text the search index reads. */
  readonly contentStart: number;
}

const KNOWN_STATUSES = 'proposed, accepted, rejected, deprecated, superseded, amended';

const NO_LINKS: DecisionLinks = Object.freeze({
  supersedes: EMPTY,
  supersededBy: EMPTY,
  amends: EMPTY,
  amendedBy: EMPTY,
});

function detachLinks(l: DecisionLinks): DecisionLinks {
  if (l.supersedes.length + l.supersededBy.length + l.amends.length + l.amendedBy.length === 0)
    return NO_LINKS;
  return {
    supersedes: detachAll(l.supersedes),
    supersededBy: detachAll(l.supersededBy),
    amends: detachAll(l.amends),
    amendedBy: detachAll(l.amendedBy),
  };
}

function dispatch(text: string): FormatOutcome {
  if (hasFrontMatter(text)) return parseMadr(text);
  const title = findTitle(text);
  if (title === null) return { ok: false, reason: 'no title: expected a "# Title" heading' };
  const bullets = bulletStyle(text, title.next);
  // MADR 2 templates write `* Status:`, log4brains writes `- Status:`.
  if (bullets === '*') return parseBulletRecord(text, 'madr');
  if (bullets === '-') return parseBulletRecord(text, 'log4brains');
  return parseNygard(text);
}

function unparseable(path: string, reason: string): ParseResult {
  return {
    decision: null,
    problems: [{ path, kind: 'unparseable', message: reason }],
    body: '',
    contentStart: 0,
  };
}

export function parseDecision(input: ParseInput): ParseResult {
  const text = normalizeText(input.text);
  if (text.trim() === '') return unparseable(input.path, 'file is empty');
  const outcome = dispatch(text);
  if (!outcome.ok) return unparseable(input.path, outcome.reason);
  const f = outcome.fields;
  const fileName = input.corpusPath.slice(input.corpusPath.lastIndexOf('/') + 1);
  const fromFile = identityFromFileName(fileName);
  const fromTitle = identityFromTitle(f.title);
  let status: DecisionStatus = normalizeStatus(f.statusRaw);
  if (f.superseded) status = 'superseded';
  const problems: Problem[] = [];
  if (status === 'unknown') {
    problems.push({
      path: input.path,
      kind: 'unknown-status',
      message: detach(
        f.statusRaw === ''
          ? `no status given (expected one of ${KNOWN_STATUSES})`
          : `status "${f.statusRaw}" is not one of ${KNOWN_STATUSES}`,
      ),
    });
  }
  const fields: Omit<Decision, 'body'> = {
    id: fromFile.numberText ?? fromTitle.numberText ?? fromFile.slug,
    number: fromFile.number ?? fromTitle.number,
    slug: fromFile.slug,
    path: input.path,
    corpusPath: input.corpusPath,
    // Everything kept from the file text is detached so the text itself can be collected.
    title: detach(fromTitle.title === '' ? f.title : fromTitle.title),
    status,
    statusRaw: detach(f.statusRaw),
    date: f.date,
    deciders: detachAll(f.deciders),
    consulted: detachAll(f.consulted),
    informed: detachAll(f.informed),
    tags: detachAll(f.tags),
    format: f.format,
    links: detachLinks(f.links),
    governs: detachAll(f.governs),
  };
  const lazy = input.lazyBody;
  const decision: Decision =
    lazy === undefined
      ? { ...fields, body: f.body }
      : new LazyDecision(fields, lazy.source, lazy.readPath, lazy.stamp);
  return { decision, problems, body: f.body, contentStart: f.contentStart };
}
