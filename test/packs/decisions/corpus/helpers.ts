import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDecision } from '../../../../src/packs/decisions/corpus/read/parse.js';
import type { SearchResult } from '../../../../src/packs/decisions/corpus/search/search.js';

export const FIXTURES = fileURLToPath(new URL('../../../fixtures/corpora/', import.meta.url));
export const MIXED = path.join(FIXTURES, 'mixed');
export const MIXED_CORPUS = path.join(MIXED, 'docs/decisions');

/** Queries the search equivalence tests put to two indexes: exact words, a prefix, a typo, two words, none. */
export const SEARCH_QUERIES: readonly string[] = [
  'postgresql',
  'kube',
  'kubernets',
  'cache',
  'postgres kafka',
  'storage',
  'nothing-like-this',
];

/** Parse one file of the mixed fixture corpus, as the corpus would. */
export function parseFixture(corpusPath: string) {
  const text = readFileSync(path.join(MIXED_CORPUS, corpusPath), 'utf8');
  return parseDecision({ text, path: `docs/decisions/${corpusPath}`, corpusPath });
}

export function parseText(text: string, corpusPath = '0001-test.md') {
  return parseDecision({ text, path: `docs/decisions/${corpusPath}`, corpusPath });
}

/** A fresh temp directory (realpath'd), removed by the returned cleanup. */
export function tempDir(prefix = 'moor-corpus-'): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A writable copy of the mixed fixture workspace. */
export function copyMixed(): { root: string; corpus: string; cleanup: () => void } {
  const { dir, cleanup } = tempDir();
  const root = path.join(dir, 'repo');
  cpSync(MIXED, root, { recursive: true });
  return { root, corpus: path.join(root, 'docs/decisions'), cleanup };
}

/** Every query's whole answer (totals, paths, scores, snippets): what two indexes must agree on. */
export function searchAnswers(
  corpus: { search(q: string, o: { limit: number }): SearchResult },
  queries: readonly string[] = SEARCH_QUERIES,
) {
  return queries.map((q) => {
    const result = corpus.search(q, { limit: 50 });
    return {
      total: result.total,
      matchedAll: result.matchedAll,
      hits: result.hits.map((h) => [h.decision.path, h.score, h.snippet]),
    };
  });
}
