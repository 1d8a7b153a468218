/**
 * Search snippets: about 160 characters of the body around the first
 * occurrence of a matched term, with the matches marked `**like this**`,
 * whitespace collapsed and an ellipsis wherever the text was cut. Matching
 * goes through the index's own tokenizer, so a snippet marks exactly the
 * tokens the index matched, and finding the first one costs only the text
 * before it.
 */
import { LazyDecision } from '../load/lazy-decision.js';
import type { Decision } from '../model.js';
import { findTitle } from '../read/text.js';
import type { Tokenizer } from './tokenize.js';

export const SNIPPET_WIDTH = 160;
const LEAD = 50;

function firstMatch(
  tok: Tokenizer,
  text: string,
  from: number,
  to: number,
  ids: ReadonlySet<number>,
): [number, number] | null {
  for (let i = from; tok.next(text, i, to); i = tok.end) {
    if (ids.has(tok.termId(text, false))) return [tok.start, tok.end];
  }
  return null;
}

/**
 * The snippet from the first part of a body (`complete` when it is all of
 * it), or undefined when that part cannot tell: no match in it, or one in its
 * last stretch, where the snippet may need text past the cut. The first match
 * is looked for once, for both the question and the snippet.
 */
export function snippetFromPrefix(
  tok: Tokenizer,
  title: string,
  text: string,
  from: number,
  ids: ReadonlySet<number>,
  complete: boolean,
): string | undefined {
  const hit = firstMatch(tok, text, from, text.length, ids);
  if (!complete && (hit === null || hit[0] >= Math.max(from, text.length - SNIPPET_WIDTH))) return undefined;
  return snippetAt(tok, title, text, from, ids, hit);
}

function mark(tok: Tokenizer, text: string, start: number, end: number, ids: ReadonlySet<number>): string {
  let out = '';
  let pos = start;
  for (let m = firstMatch(tok, text, pos, end, ids); m !== null; m = firstMatch(tok, text, pos, end, ids)) {
    out += `${text.slice(pos, m[0])}**${text.slice(m[0], m[1])}**`;
    pos = m[1];
  }
  return out + text.slice(pos, end);
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Snippet for a hit; `ids` are the dictionary terms the query matched (exact,
 * prefix and typo expansions). Falls back to the title when only the title
 * matched, and to the opening of the body when nothing does.
 */
export function makeSnippet(
  tok: Tokenizer,
  title: string,
  body: string,
  from: number,
  ids: ReadonlySet<number>,
): string {
  return snippetAt(tok, title, body, from, ids, firstMatch(tok, body, from, body.length, ids));
}

/** The snippet around `hit`, the first match in body[from, ...) (null: none). */
function snippetAt(
  tok: Tokenizer,
  title: string,
  body: string,
  from: number,
  ids: ReadonlySet<number>,
  hit: [number, number] | null,
): string {
  if (hit === null) {
    if (firstMatch(tok, title, 0, title.length, ids) !== null)
      return collapse(mark(tok, title, 0, title.length, ids));
    const end = Math.min(body.length, from + SNIPPET_WIDTH);
    return collapse(body.slice(from, end)) + (end < body.length ? ' …' : '');
  }
  let start = Math.max(from, hit[0] - LEAD);
  let end = Math.min(body.length, start + SNIPPET_WIDTH);
  if (end - start < SNIPPET_WIDTH) start = Math.max(from, end - SNIPPET_WIDTH);
  // Cut at whitespace, never inside the match.
  if (start > from && start < hit[0]) {
    const space = body.slice(start - 1, hit[0]).search(/\s/);
    start = space === -1 ? hit[0] : start - 1 + space + 1;
  }
  if (end < body.length && end > hit[1]) {
    const tail = body.slice(hit[1], end + 1);
    const lastSpace = tail.search(/\s\S*$/);
    if (lastSpace !== -1) end = hit[1] + lastSpace;
  }
  const prefix = start > from ? '… ' : '';
  const suffix = end < body.length ? ' …' : '';
  return prefix + collapse(mark(tok, body, start, end, ids)) + suffix;
}

/** Enough for front matter, title and the first paragraphs, where most matches are. */
const SNIPPET_PREFIX_BYTES = 4096;

/**
 * A hit's snippet, from the top of its file when the match is there (the
 * usual case), else from the whole body.
 */
export function hitSnippet(tok: Tokenizer, d: Decision, ids: ReadonlySet<number>): string {
  if (d instanceof LazyDecision) {
    const head = d.bodyPrefix(SNIPPET_PREFIX_BYTES);
    const from = findTitle(head.text)?.next ?? 0;
    const fromHead = snippetFromPrefix(tok, d.title, head.text, from, ids, head.complete);
    if (fromHead !== undefined) return fromHead;
  }
  const body = d.body;
  return makeSnippet(tok, d.title, body, findTitle(body)?.next ?? 0, ids);
}
