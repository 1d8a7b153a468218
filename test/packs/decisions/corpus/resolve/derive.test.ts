// The derived state (reference index, supersession graph, amendments, governance) is built when
// first asked for. Whatever the order of loads, refreshes and questions, the answers must be those
// of a corpus that loaded the same files and was asked right away.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Corpus, loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import type { ResolveResult } from '../../../../../src/packs/decisions/corpus/resolve/resolve.js';
import { copyMixed } from '../helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function open(root: string, dir: string): Corpus {
  const corpus = loadCorpus({ workspaceRoot: root, corpusDir: dir });
  cleanups.push(() => corpus.close());
  return corpus;
}

function plain(r: ResolveResult): string {
  if (r.kind === 'found') return `found ${r.decision.path}`;
  if (r.kind === 'ambiguous') return `ambiguous ${r.candidates.map((d) => d.path).join(',')}`;
  return `not-found ${r.suggestions.map((d) => d.path).join(',')}`;
}

/** Every answer the derived state gives, asked in one order (the names first, the graph last). */
function answers(corpus: Corpus, extraRefs: readonly string[]) {
  const names = corpus.decisions.flatMap((d) => [d.id, d.slug, d.path, d.title, String(d.number)]);
  return {
    resolved: [...names, ...extraRefs].map((ref) => `${ref} → ${plain(corpus.resolve(ref))}`),
    governing: corpus.governing(['src/db/schema.sql', 'infra/main.tf', 'services/api/index.ts']),
    problems: corpus.problems.map((p) => `${p.path} ${p.kind}`),
    successors: corpus.decisions.map((d) => corpus.finalSuccessors(d).map((c) => c.decision.path)),
    edges: corpus.edges.map((e) => `${e.fromPath} ${e.toPath} ${e.state}`),
    amendments: corpus.amendments.map((e) => `${e.fromPath} ${e.toPath} ${e.state}`),
  };
}

describe('derived state built when asked', () => {
  it('a refresh before the first question changes nothing about the answers', () => {
    const { root, corpus: dir, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const early = open(root, dir);
    // Nothing asked yet: the first load's reference index is still waiting to be built.
    const kafka = path.join(dir, '0003-use-kafka-for-events.md');
    writeFileSync(kafka, readFileSync(kafka, 'utf8').replace(/Kafka/g, 'Redpanda'));
    rmSync(path.join(dir, '0004-adopt-typescript.md'));
    writeFileSync(
      path.join(dir, '0030-adopt-zanzibar.md'),
      '# 30. Adopt Zanzibar\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\nSupersedes [ADR-0002](0002-use-postgresql-for-storage.md)\n',
    );
    expect(early.refresh()).toEqual({ added: 1, changed: 1, removed: 1 });
    const fresh = open(root, dir);
    const gone = ['adopt-typescript', '0004', 'use-kafka-for-events'];
    const got = answers(early, gone);
    expect(got).toEqual(answers(fresh, gone));
    // The old names are gone, the new ones found, the new relation in the graph.
    expect(got.resolved.filter((r) => r.startsWith('0004 → '))).toEqual([
      expect.stringMatching(/^0004 → not-found /),
    ]);
    expect(got.resolved).toContain('0030 → found docs/decisions/0030-adopt-zanzibar.md');
    expect(got.edges).toContain(
      'docs/decisions/0030-adopt-zanzibar.md docs/decisions/0002-use-postgresql-for-storage.md resolved',
    );
  });

  it('a question asked between two refreshes sees each version whole', () => {
    const { root, corpus: dir, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const corpus = open(root, dir);
    const before = corpus.edges.length;
    writeFileSync(
      path.join(dir, '0031-adopt-openfga.md'),
      '# 31. Adopt OpenFGA\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\nSupersedes [ADR-0003](0003-use-kafka-for-events.md)\n',
    );
    corpus.refresh();
    expect(corpus.edges.length).toBe(before + 1);
    expect(plain(corpus.resolve('31'))).toBe('found docs/decisions/0031-adopt-openfga.md');
    expect(answers(corpus, [])).toEqual(answers(open(root, dir), []));
  });
});
