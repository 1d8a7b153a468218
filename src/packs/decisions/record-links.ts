/**
 * Link rot: relative Markdown links from a record to files of the repository
 * that are not there. Links to web pages, anchors inside the record and other
 * records (`*.md` inside the decision folder: those are relations, checked as
 * such) are left alone; code blocks and inline code are not links.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface BrokenLink {
  readonly target: string;
  /** 1-based line of the link. */
  readonly line: number;
}

// [text](target "title") and ![alt](target); reference definitions `[id]: target`.
const INLINE_LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function targetsOf(line: string): string[] {
  const code = line.replace(/`[^`]*`/g, '');
  const out = [...code.matchAll(INLINE_LINK)].map((m) => m[1] as string);
  const def = REFERENCE_DEFINITION.exec(code);
  if (def?.[1] !== undefined) out.push(def[1]);
  return out;
}

/** A relative link of a record into the workspace: as written, its workspace-relative target, its line. */
export interface RepositoryLink extends BrokenLink {
  readonly rel: string;
}

/**
 * The relative links of one record (`file`, workspace-relative, its `lines`
 * as written) into the workspace, other records of its folder left out:
 * what its text says, whichever files exist now.
 */
export function repositoryLinks(corpusRel: string, file: string, lines: readonly string[]): RepositoryLink[] {
  const out: RepositoryLink[] = [];
  const corpusPrefix = corpusRel === '' ? '' : `${corpusRel}/`;
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    // Both link forms open with a bracket: most lines of a record hold none.
    if (fenced || !line.includes('[')) return;
    for (const raw of targetsOf(line)) {
      if (SCHEME.test(raw) || raw.startsWith('#') || raw.startsWith('//')) continue;
      let target = raw.replace(/[#?].*$/, '');
      if (target === '') continue;
      try {
        target = decodeURIComponent(target);
      } catch {
        // a stray % stays as written
      }
      // `/docs/x.md` is from the repository root, as forges render it; anything else from the record's folder.
      const rel = target.startsWith('/')
        ? path.posix.normalize(target.slice(1))
        : path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
      if (rel.startsWith('../') || rel === '..') continue; // outside the workspace: not ours to judge
      if (/\.(md|markdown)$/i.test(rel) && (corpusPrefix === '' || rel.startsWith(corpusPrefix))) continue;
      out.push({ target: raw, rel, line: i + 1 });
    }
  });
  return out;
}

/** The links among `links` whose target does not exist inside the workspace now. */
export function brokenLinks(root: string, links: readonly RepositoryLink[]): BrokenLink[] {
  return links
    .filter((link) => !fs.existsSync(path.join(root, link.rel)))
    .map(({ target, line }) => ({ target, line }));
}
