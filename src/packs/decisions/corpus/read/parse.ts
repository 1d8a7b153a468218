/**
 * One file in, one Decision (or a precise problem) out. Picks the format,
 * then applies identity and status normalization common to all formats.
 */

import { type BodySource, LazyDecision } from '../load/lazy-decision.js';
import type { Decision, DecisionLinks, DecisionStatus, Problem } from '../model.js';
import type { DateReading } from './dates.js';
import type { FormatOutcome } from './format-fields.js';
import { headingView } from './headings.js';
import {
  dateFromFileName,
  identityFromFileName,
  identityFromTitle,
  isFolderIndexName,
  stripMarkdownExt,
} from './identity.js';
import { bulletStyle, parseBulletRecord } from './parse-log4brains.js';
import { hasFrontMatter, parseMadr } from './parse-madr.js';
import { parseNygard } from './parse-nygard.js';
import { readStatus } from './status.js';
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
  /** The record's title in the site navigation (mkdocs `nav`), used when the file has none. */
  readonly navTitle?: string | undefined;
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
  const links = {
    supersedes: detachAll(l.supersedes),
    supersededBy: detachAll(l.supersededBy),
    amends: detachAll(l.amends),
    amendedBy: detachAll(l.amendedBy),
  };
  return l.partial === undefined ? links : { ...links, partial: detachAll(l.partial) };
}

function dispatch(text: string): FormatOutcome {
  if (hasFrontMatter(text)) return parseMadr(text);
  // Setext section headings bound the metadata under the title like `##` ones.
  const title = findTitle(text);
  const view = headingView(text, title);
  const bullets =
    view === null
      ? bulletStyle(text, title?.next ?? 0)
      : bulletStyle(view.text, findTitle(view.text)?.next ?? 0);
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

/** `use-postgres-for-storage` → `Use postgres for storage`: the last resort for a record with no title. */
function titleFromSlug(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function statusProblem(path: string, statusRaw: string, placeholder: boolean): Problem {
  const message = placeholder
    ? `status "${statusRaw}" is a template placeholder listing several statuses; pick one of ${KNOWN_STATUSES}`
    : statusRaw === ''
      ? `no status given (expected one of ${KNOWN_STATUSES})`
      : `status "${statusRaw}" is not one of ${KNOWN_STATUSES}`;
  return { path, kind: 'unknown-status', message: detach(message) };
}

export function parseDecision(input: ParseInput): ParseResult {
  const text = normalizeText(input.text);
  if (text.trim() === '') return unparseable(input.path, 'file is empty');
  const outcome = dispatch(text);
  if (!outcome.ok) return unparseable(input.path, outcome.reason);
  const f = outcome.fields;
  const parts = input.corpusPath.split('/');
  const fileName = parts[parts.length - 1] ?? input.corpusPath;
  // A topic folder holding one record (`0007-use-x/README.md`) is named by the folder.
  const nameSource =
    isFolderIndexName(fileName) && parts.length > 1 ? (parts[parts.length - 2] ?? fileName) : fileName;
  const fromFile = identityFromFileName(nameSource);
  const fromTitle = identityFromTitle(f.title, fromFile.number);
  const reading = readStatus(f.statusRaw);
  let status: DecisionStatus = reading.status;
  if (f.superseded) status = 'superseded';
  const problems: Problem[] = [];
  if (status === 'unknown') problems.push(statusProblem(input.path, f.statusRaw, reading.placeholder));
  let title = fromTitle.title === '' ? f.title : fromTitle.title;
  let titleSource = f.titleSource;
  if (title === '') {
    const nav = input.navTitle === undefined ? '' : identityFromTitle(input.navTitle, fromFile.number).title;
    title = nav !== '' ? nav : titleFromSlug(fromFile.slug);
    titleSource = nav !== '' ? 'nav' : 'file-name';
  }
  let links = f.links;
  if (reading.partial && f.links.partial === undefined && f.links.supersededBy.length > 0) {
    // "Partly superseded by X": the status word qualifies every successor it names.
    links = { ...f.links, partial: f.links.supersededBy };
  }
  const date = f.date ?? dateReadingOf(dateFromFileName(stripMarkdownExt(nameSource)));
  const fields: Omit<Decision, 'body'> = {
    id: fromFile.numberText ?? fromTitle.numberText ?? fromFile.slug,
    number: fromFile.number ?? fromTitle.number,
    slug: fromFile.slug,
    path: input.path,
    corpusPath: input.corpusPath,
    // Everything kept from the file text is detached so the text itself can be collected.
    title: detach(title),
    status,
    statusRaw: detach(f.statusRaw),
    date: date?.date ?? null,
    deciders: detachAll(f.deciders),
    consulted: detachAll(f.consulted),
    informed: detachAll(f.informed),
    tags: detachAll(f.tags),
    format: f.format,
    links: detachLinks(links),
    governs: detachAll(f.governs),
  };
  // Rare fields are added only when set: most decisions keep one shared shape.
  const extra: Mutable<Pick<Decision, 'dateReadings' | 'dateOrder' | 'titleSource' | 'updated'>> = {};
  if (date?.dayFirst !== undefined) extra.dateReadings = { monthFirst: date.date, dayFirst: date.dayFirst };
  if (date?.order !== undefined) extra.dateOrder = date.order;
  if (titleSource !== undefined) extra.titleSource = titleSource;
  if (f.updated !== undefined) extra.updated = detach(f.updated);
  const all =
    (extra.dateReadings ?? extra.dateOrder ?? extra.titleSource ?? extra.updated)
      ? { ...fields, ...extra }
      : fields;
  const lazy = input.lazyBody;
  const decision: Decision =
    lazy === undefined
      ? { ...all, body: f.body }
      : new LazyDecision(all, lazy.source, lazy.readPath, lazy.stamp);
  return { decision, problems, body: f.body, contentStart: f.contentStart };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function dateReadingOf(iso: string | null): DateReading | null {
  return iso === null ? null : { date: iso };
}
