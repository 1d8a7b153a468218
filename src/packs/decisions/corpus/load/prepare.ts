/**
 * The per-file work of a cold load (read, parse, tokenize) for a batch of
 * files, in a form that can cross a thread boundary: plain decisions without
 * bodies, and postings as typed arrays in the batch's own term ids.
 */

import type { Problem } from '../model.js';
import { parseDecision } from '../read/parse.js';
import { readRecord } from '../read/read.js';
import type { ExportedLog } from '../search/search-index.js';
import { SearchIndex } from '../search/search-index.js';
import { TermDict } from '../search/term-dict.js';
import type { PlainDecision } from './lazy-decision.js';

export interface PrepareEntry {
  readonly corpusPath: string;
  readonly readPath: string;
  /** Workspace-relative POSIX path. */
  readonly rel: string;
  /** The record's title in the site navigation, when it has one. */
  readonly navTitle?: string | undefined;
}

const NO_BODY = {
  source: { get: () => '', prefix: () => ({ text: '', complete: true }) },
  readPath: '',
  stamp: '',
};

export type PreparedFile =
  | { readonly outcome: 'gone' }
  | { readonly outcome: 'skipped'; readonly stamp: string; readonly reason: string }
  | {
      readonly outcome: 'parsed';
      readonly stamp: string;
      readonly decision: PlainDecision | null;
      readonly problems: readonly Problem[];
      /** Document number in `log`, or -1 when the file did not parse. */
      readonly doc: number;
    };

export interface PreparedBatch {
  /** One per entry, in entry order. */
  readonly files: PreparedFile[];
  readonly log: ExportedLog;
}

export function prepareFiles(entries: readonly PrepareEntry[]): PreparedBatch {
  const index = new SearchIndex(new TermDict());
  index.reserveDocs(entries.length);
  const files: PreparedFile[] = [];
  let docs = 0;
  for (const e of entries) {
    const read = readRecord(e.readPath);
    if (read.kind === 'gone') {
      files.push({ outcome: 'gone' });
      continue;
    }
    if (read.kind === 'skipped') {
      files.push({ outcome: 'skipped', stamp: read.stamp, reason: read.reason });
      continue;
    }
    // The body stays on disk: the receiving side makes its own lazy decision from the plain fields.
    const parsed = parseDecision({
      text: read.text,
      path: e.rel,
      corpusPath: e.corpusPath,
      lazyBody: NO_BODY,
      navTitle: e.navTitle,
    });
    let decision: PlainDecision | null = null;
    let doc = -1;
    if (parsed.decision !== null) {
      // Own fields only: a LazyDecision's body is a prototype getter, so it is not copied.
      decision = { ...parsed.decision };
      index.add({ title: parsed.decision.title, body: parsed.body, from: parsed.contentStart });
      doc = docs++;
    }
    files.push({ outcome: 'parsed', stamp: read.stamp, decision, problems: parsed.problems, doc });
  }
  return { files, log: index.exportLog() };
}
