/**
 * A corpus loaded with searchIndex 'deferred' indexes on its first search; its
 * answers must be exactly those of a corpus indexed during the load, before
 * and after edits.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Corpus, loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import { DecisionSearch } from '../../../../../src/packs/decisions/corpus/search/search.js';
import { copyMixed, FIXTURES, searchAnswers } from '../helpers.js';

function answers(corpus: Corpus) {
  return searchAnswers(corpus);
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

describe('deferred search index', () => {
  it('answers every query exactly as an index built at load', () => {
    for (const name of ['search', 'mixed']) {
      const root = path.join(FIXTURES, name);
      const corpusDir = name === 'mixed' ? 'docs/decisions' : root;
      const eager = loadCorpus({ workspaceRoot: root, corpusDir });
      const deferred = loadCorpus({ workspaceRoot: root, corpusDir, searchIndex: 'deferred' });
      expect(answers(deferred)).toEqual(answers(eager));
    }
  });

  it('stays equal through edits before and after the first search', () => {
    const { root, corpus: dir, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const eager = loadCorpus({ workspaceRoot: root, corpusDir: dir });
    const deferred = loadCorpus({ workspaceRoot: root, corpusDir: dir, searchIndex: 'deferred' });
    const record = (title: string) =>
      `# 90. ${title}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe cache storage in kubernetes.\n`;
    writeFileSync(path.join(dir, '0090-new.md'), record('Cache storage on Kubernetes'));
    eager.refresh();
    deferred.refresh();
    expect(answers(deferred)).toEqual(answers(eager));
    writeFileSync(path.join(dir, '0090-new.md'), record('Keep PostgreSQL caches warm'));
    eager.refresh();
    deferred.refresh();
    expect(answers(deferred)).toEqual(answers(eager));
    rmSync(path.join(dir, '0090-new.md'));
    eager.refresh();
    deferred.refresh();
    expect(answers(deferred)).toEqual(answers(eager));
  });

  it('queues upserts until something reads the index', () => {
    const search = new DecisionSearch({ mode: 'deferred' });
    const eager = new DecisionSearch();
    const body = '# Use PostgreSQL\n\nWe store rows in PostgreSQL.\n';
    const decision = { path: 'docs/0001-a.md', title: 'Use PostgreSQL', status: 'accepted', body } as never;
    for (const s of [search, eager]) {
      s.upsert(decision, body, body.indexOf('\n') + 1);
      s.commit();
    }
    expect(search.building).toBe(true);
    expect(search.search('postgresql').total).toBe(1);
    expect(search.building).toBe(false);
    expect(search.search('postgresql').hits[0]?.score).toBe(eager.search('postgresql').hits[0]?.score);
  });
});
