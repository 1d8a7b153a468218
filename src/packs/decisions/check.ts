/**
 * The corpus health check people run (`moor decisions check`): every problem
 * found while parsing plus every supersession edge that does not hold; and
 * the full check behind the check_decisions tool, which also walks the
 * workspace for governed globs that match no file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type RecordMarks, storedLine, storedMarks, storeLine, storeMarks } from './check-memo.js';
import type { DecisionCorpus as Corpus } from './corpus/corpus-view.js';
import { type RecordMemo, recordMemo } from './corpus/load/record-memo.js';
import { LoggedDecision } from './corpus/logs/logged-decision.js';
import type { Decision } from './corpus/model.js';
import { supersededWithoutSuccessor } from './corpus/resolve/relation-view.js';
import { GlobBuckets } from './glob-buckets.js';
import { brokenLinks, repositoryLinks } from './record-links.js';
import { reviewDateOf, todayUtc } from './record-review.js';

export interface CheckFinding {
  readonly path: string;
  /** 1-based line the problem is written on, when it can be pointed at; null otherwise. */
  readonly line: number | null;
  readonly kind: string;
  readonly message: string;
}

/** A finding before its line is looked up: `needle` is the text (a ref, a glob) to find in the file. */
interface Draft {
  readonly path: string;
  readonly kind: string;
  readonly message: string;
  /** Texts to look for, best first; the first line holding any of the first that occurs wins. */
  readonly needles?: readonly string[] | undefined;
  /** The line, when the finding already knows it (it was found by reading the file). */
  readonly line?: number | undefined;
}

export interface CorpusCheckOptions {
  /** YYYY-MM-DD a review date is compared with (default: today, UTC). */
  readonly today?: string | undefined;
}

export interface CheckReport {
  readonly decisions: number;
  readonly findings: readonly CheckFinding[];
}

export function checkCorpus(corpus: Corpus, options: CorpusCheckOptions = {}): CheckReport {
  const lines = new FileLines(corpus.workspaceRoot);
  const drafts = [...corpusDrafts(corpus), ...recordDrafts(corpus, lines, options)];
  return { decisions: corpus.decisions.length, findings: locate(corpus, lines, drafts) };
}

/** Each file's lines, read once per check (null when unreadable or too large to point into). */
class FileLines {
  private readonly cache = new Map<string, readonly string[] | null>();
  constructor(private readonly root: string) {}
  of(rel: string): readonly string[] | null {
    if (!this.cache.has(rel)) {
      let text: string | null = null;
      try {
        const abs = path.resolve(this.root, rel);
        if (fs.statSync(abs).size <= MAX_LOCATE_BYTES) text = fs.readFileSync(abs, 'utf8');
      } catch {
        // unreadable: the finding keeps no line
      }
      this.cache.set(rel, text === null ? null : text.split(/\r?\n/));
    }
    return this.cache.get(rel) ?? null;
  }
}

/**
 * Marks per parsed record: a record object stands for one stamp of its file
 * (a changed file is a new object), so a daemon checking an unchanged corpus
 * again reads no record. An unreadable file is read again next time.
 */
const marksOf = new WeakMap<Decision, RecordMarks>();

function recordMarks(d: Decision, corpusRel: string, lines: FileLines): RecordMarks | null {
  const known = marksOf.get(d);
  if (known !== undefined) return known;
  // A one-shot run finds them in the parse cache, kept with the parse of this very file.
  const memo = memoOf(d);
  const folder = folderOf(d, corpusRel);
  const stored = storedMarks(memo, folder);
  if (stored !== undefined) {
    marksOf.set(d, stored);
    return stored;
  }
  const text = lines.of(d.path);
  if (text === null) return null;
  const marks = { review: reviewDateOf(text), links: repositoryLinks(folder, d.path, text) };
  marksOf.set(d, marks);
  storeMarks(memo, folder, marks);
  return marks;
}

/** The memo of the record's own parse (a log's record, for one of several logs). */
function memoOf(d: Decision): RecordMemo | undefined {
  return recordMemo(d instanceof LoggedDecision ? d.inner : d);
}

/** What only the record as written shows: a review date that has passed, links to files that are not there. */
function recordDrafts(corpus: Corpus, lines: FileLines, options: CorpusCheckOptions): Draft[] {
  const today = options.today ?? todayUtc();
  const root = corpus.workspaceRoot;
  const corpusRel = path.relative(root, path.resolve(root, corpus.corpusDir)).split(path.sep).join('/');
  const out: Draft[] = [];
  for (const d of corpus.decisions) {
    const marks = recordMarks(d, corpusRel, lines);
    if (marks === null) continue;
    const { review } = marks;
    if (review !== null && review.date < today && d.status !== 'superseded' && d.status !== 'deprecated')
      out.push({
        path: d.path,
        kind: 'review-overdue',
        message: `${d.id} was due for review on ${review.date}`,
        line: review.line,
      });
    for (const link of brokenLinks(root, marks.links))
      out.push({
        path: d.path,
        kind: 'broken-link',
        message: `${d.id} links to ${link.target}, which is not in the repository`,
        line: link.line,
      });
  }
  return out;
}

/** The decision folder of a record's own log (with several logs, each has its own). */
function folderOf(d: Decision, corpusRel: string): string {
  if (!(d instanceof LoggedDecision)) return corpusRel;
  const own = d.inner.corpusPath;
  return d.path.endsWith(`/${own}`) ? d.path.slice(0, -own.length - 1) : corpusRel;
}

function corpusDrafts(corpus: Corpus): Draft[] {
  const findings: Draft[] = corpus.problems.map((p) => ({
    path: p.path,
    kind: p.kind,
    message: p.message,
    needles: p.kind === 'unknown-status' ? ['status'] : undefined,
  }));
  for (const edge of corpus.edges) {
    if (edge.state === 'resolved') continue;
    const where = edge.declaredBy[0] ?? edge.fromPath ?? edge.from;
    const detail =
      edge.state === 'dangling'
        ? `${edge.from} supersedes ${edge.to}, which does not exist`
        : edge.state === 'ambiguous'
          ? `${edge.from} supersedes ${edge.to}, which matches ${(edge.candidates ?? []).join(', ')}`
          : `${edge.from} supersedes ${edge.to} inside a supersession cycle`;
    // The reference as the declaring record wrote it: the side that is not the declarer. A resolved
    // side is known by its id, which the record may have written as a bare number or a file name.
    const declarerIsFrom = edge.fromPath !== null && edge.declaredBy.includes(edge.fromPath);
    const [ref, otherPath] = declarerIsFrom ? [edge.to, edge.toPath] : [edge.from, edge.fromPath];
    const needles = [ref, ref.replace(/^0+(?=\d)/, '')];
    if (otherPath !== null) needles.push(path.posix.basename(otherPath));
    findings.push({ path: where, kind: edge.state, message: detail, needles });
  }
  for (const d of supersededWithoutSuccessor(corpus)) {
    findings.push({
      path: d.path,
      kind: 'no-successor',
      message: `${d.id} is marked superseded but names no successor`,
      needles: ['superseded'],
    });
  }
  return findings;
}

/** Found lines per parsed record and needles (as marksOf: an unchanged record is not read again). */
const linesFound = new WeakMap<Decision, Map<string, number | null>>();

/** The line a draft without one points at: the first line holding a needle (1 when none does). */
function lineOf(lines: FileLines, draft: Draft, record: Decision | undefined): number | null {
  const key = (draft.needles ?? []).join('\u0000');
  const found = record === undefined ? undefined : linesFound.get(record);
  if (found?.has(key)) return found.get(key) ?? null;
  const memo = record === undefined ? undefined : memoOf(record);
  const stored = storedLine(memo, key);
  if (stored !== undefined) return remember(record, found, key, stored);
  const fileLines = lines.of(draft.path);
  if (fileLines === null) return null;
  let line = 1;
  for (const needle of (draft.needles ?? []).map((n) => n.toLowerCase())) {
    const at = fileLines.findIndex((l) => l.toLowerCase().includes(needle));
    if (at >= 0) {
      line = at + 1;
      break;
    }
  }
  storeLine(memo, key, line);
  return remember(record, found, key, line);
}

function remember(
  record: Decision | undefined,
  found: Map<string, number | null> | undefined,
  key: string,
  line: number | null,
): number | null {
  if (record === undefined) return line;
  if (found === undefined) linesFound.set(record, new Map([[key, line]]));
  else found.set(key, line);
  return line;
}

/** Adds each finding's line (reading every named file at most once) and sorts by path, line, kind. */
function locate(corpus: Corpus, lines: FileLines, drafts: readonly Draft[]): CheckFinding[] {
  const records = new Map(corpus.decisions.map((d) => [d.path, d] as const));
  const out = drafts.map(
    (d): CheckFinding => ({
      path: d.path,
      line: d.line !== undefined ? d.line : lineOf(lines, d, records.get(d.path)),
      kind: d.kind,
      message: d.message,
    }),
  );
  out.sort(
    (a, b) =>
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  );
  return out;
}

/** Records larger than this are not read again just to point at a line. */
const MAX_LOCATE_BYTES = 4 * 1024 * 1024;

/** What the workspace walk reports while it runs. */
export interface WalkProgress {
  readonly files: number;
  readonly folders: number;
}

export interface WorkspaceCheckOptions extends CorpusCheckOptions {
  /** Stops the walk; the check then throws the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Called every PROGRESS_EVERY entries and once at the end of the walk. */
  onProgress?(progress: WalkProgress): void | Promise<void>;
}

export interface WorkspaceCheckReport extends CheckReport {
  readonly filesScanned: number;
  readonly foldersScanned: number;
  /** Distinct positive governed globs checked against the tree. */
  readonly globsChecked: number;
}

const PROGRESS_EVERY = 500;
const GLOB_CHARS = /[*?[\]{}()!+@]/;

/**
 * The full check: checkCorpus plus governed globs that match no file in the
 * workspace. Walks the repository tree (skipping .git, node_modules and
 * hidden folders; symlinks are never followed), yielding to the event loop
 * as it goes so the signal and progress reports get through.
 */
export async function checkWorkspace(
  corpus: Corpus,
  options: WorkspaceCheckOptions = {},
): Promise<WorkspaceCheckReport> {
  const root = corpus.workspaceRoot;
  const lines = new FileLines(root);
  const base = [...corpusDrafts(corpus), ...recordDrafts(corpus, lines, options)];
  // Distinct positive patterns → the decisions that declare them.
  const owners = new Map<string, string[]>();
  for (const decision of corpus.decisions) {
    for (const glob of decision.governs) {
      if (glob.startsWith('!') || glob.trim() === '') continue;
      const list = owners.get(glob) ?? [];
      if (!list.includes(decision.path)) list.push(decision.path);
      owners.set(glob, list);
    }
  }
  // Literal paths (and `dir/**`) name a file or a folder, hidden ones included: alive when it exists.
  // Real globs are tested against the walked tree.
  const dead = new Set<string>();
  const patterns = new Map<string, string>();
  const exists = new ExistsInside(root);
  for (const glob of owners.keys()) {
    const p = glob.endsWith('/') ? glob.slice(0, -1) : glob;
    const literal = !GLOB_CHARS.test(p)
      ? p
      : p.endsWith('/**') && !GLOB_CHARS.test(p.slice(0, -3))
        ? p.slice(0, -3)
        : undefined;
    if (literal !== undefined) {
      if (!exists.has(literal)) dead.add(glob);
    } else patterns.set(glob, p);
  }
  const walked = { files: 0, folders: 0 };
  const globs = new GlobBuckets(patterns);
  const stack: string[] = globs.unmatchedCount > 0 ? [''] : [];
  let sinceYield = 0;
  while (stack.length > 0 && globs.unmatchedCount > 0) {
    options.signal?.throwIfAborted();
    const rel = stack.pop() as string;
    let entries: fs.Dirent[];
    try {
      // One folder at a time, synchronously (a listing is one quick call; the walk yields every
      // PROGRESS_EVERY entries): the thread pool's hops cost a one-shot check more than its listings.
      entries = fs.readdirSync(rel === '' ? root : path.join(root, rel), { withFileTypes: true });
    } catch {
      continue; // an unreadable folder: nothing in it can be checked
    }
    walked.folders += 1;
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        stack.push(child);
      } else walked.files += 1; // files and symlinks count as paths; a symlink is never followed
      globs.test(rel, child);
      if (++sinceYield >= PROGRESS_EVERY) {
        sinceYield = 0;
        await options.onProgress?.({ ...walked });
        await new Promise<void>((resolve) => setImmediate(resolve));
        options.signal?.throwIfAborted();
      }
    }
  }
  options.signal?.throwIfAborted();
  await options.onProgress?.({ ...walked });
  for (const glob of globs.unmatched()) dead.add(glob);
  const drafts = [...base];
  for (const glob of dead) {
    for (const where of owners.get(glob) ?? []) {
      drafts.push({
        path: where,
        kind: 'dead-glob',
        message: `governed path ${JSON.stringify(glob)} matches no file in the workspace`,
        needles: [glob],
      });
    }
  }
  return {
    decisions: corpus.decisions.length,
    findings: locate(corpus, lines, drafts),
    filesScanned: walked.files,
    foldersScanned: walked.folders,
    globsChecked: owners.size,
  };
}

/**
 * Whether workspace-relative paths exist, without leaving the workspace or
 * following a final symlink. Each folder on the way is looked up once per
 * check: the many paths declared under a folder the workspace lacks cost one
 * lookup together.
 */
class ExistsInside {
  /** Absolute folders strictly inside the root, as found. */
  private readonly folders = new Map<string, boolean>();
  constructor(private readonly root: string) {}

  has(rel: string): boolean {
    const abs = path.resolve(this.root, rel);
    if (abs === this.root) return lstatOk(abs);
    if (!abs.startsWith(`${this.root}${path.sep}`)) return false;
    const parent = path.dirname(abs);
    return (parent === this.root || this.folderExists(parent)) && lstatOk(abs);
  }

  /** `abs` is strictly inside the root, so the walk up ends there. */
  private folderExists(abs: string): boolean {
    let ok = this.folders.get(abs);
    if (ok === undefined) {
      const parent = path.dirname(abs);
      ok = (parent === this.root || this.folderExists(parent)) && lstatOk(abs);
      this.folders.set(abs, ok);
    }
    return ok;
  }
}

function lstatOk(abs: string): boolean {
  try {
    fs.lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}
