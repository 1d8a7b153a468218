/**
 * A corpus loaded with searchIndex 'background' answers before its search
 * index is built; the index builds a slice at a time afterwards. Whenever a
 * search comes (before, during or after the build, with edits in between),
 * its answer must be exactly an eager index's; the queue must hold no bodies;
 * and a closed corpus must build nothing more.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Corpus, loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import type { RecordStore } from '../../../../../src/packs/decisions/corpus/load/records.js';
import type { Decision } from '../../../../../src/packs/decisions/corpus/model.js';
import { IndexBuilder } from '../../../../../src/packs/decisions/corpus/search/index-builder.js';
import { DecisionSearch } from '../../../../../src/packs/decisions/corpus/search/search.js';
import { copyMixed, FIXTURES, SEARCH_QUERIES, searchAnswers } from '../helpers.js';

const QUERIES = [
  ...SEARCH_QUERIES,
  'events',
  'record architecture decisions',
  'zurich',
  'déploiement',
  'terraform modules',
  'logging trace ids',
];

const CORPORA: readonly [string, string][] = [
  ['search', '.'],
  ['mixed', 'docs/decisions'],
  ['wild-topics', 'docs/decisions'],
  ['wild-log4brains', 'docs/adr'],
  ['wild-emoji', 'docs/adr'],
];

function answers(corpus: Corpus) {
  return searchAnswers(corpus, QUERIES);
}

function storeOf(corpus: Corpus): RecordStore {
  return (corpus as unknown as { store: RecordStore }).store;
}

/** Index `n` queued changes, one per step (a deadline already past ends a step after one). */
function stepBy(corpus: Corpus, n: number): void {
  for (let i = 0; i < n; i++) storeOf(corpus).search.step(0);
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function load(root: string, corpusDir: string, background: boolean): Corpus {
  const corpus = loadCorpus({
    workspaceRoot: root,
    corpusDir,
    ...(background ? { searchIndex: 'background' as const } : {}),
  });
  cleanups.push(() => corpus.close());
  return corpus;
}

describe('search index built in the background', () => {
  it('answers a search before, during and after the build exactly as an eager index', async () => {
    for (const [name, dir] of CORPORA) {
      const root = path.join(FIXTURES, name);
      const corpusDir = path.join(root, dir);
      const expected = answers(load(root, corpusDir, false));
      const size = storeOf(load(root, corpusDir, true)).size;
      expect(size, name).toBeGreaterThan(2);
      for (const done of [0, 1, Math.floor(size / 2), size + 1]) {
        const corpus = load(root, corpusDir, true);
        stepBy(corpus, done);
        expect(answers(corpus), `${name} after ${done}`).toEqual(expected);
        // The search finished the build; the builder's next slice finds nothing left.
        expect(storeOf(corpus).search.building).toBe(false);
        await corpus.searchReady();
      }
      const awaited = load(root, corpusDir, true);
      await awaited.searchReady();
      expect(answers(awaited), name).toEqual(expected);
    }
  });

  it('ends in the eager index state after edits and removals made during the build', async () => {
    const { root, corpus: dir, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const eager = load(root, dir, false);
    const background = load(root, dir, true);
    stepBy(background, 3);
    const record = (title: string) =>
      `# 90. ${title}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe cache storage in kubernetes.\n`;
    writeFileSync(path.join(dir, '0090-new.md'), record('Cache storage on Kubernetes'));
    writeFileSync(
      path.join(dir, '0002-use-postgresql-for-storage.md'),
      record('Keep PostgreSQL caches warm'),
    );
    rmSync(path.join(dir, '0003-use-kafka-for-events.md'));
    rmSync(path.join(dir, '0001-record-architecture-decisions.md'));
    for (const c of [eager, background]) c.refresh();
    // Queued behind the load's documents, in order, not indexed at once.
    expect(storeOf(background).search.building).toBe(true);
    await background.searchReady();
    expect(storeOf(background).search.building).toBe(false);
    expect(answers(background)).toEqual(answers(eager));

    // Once built, a change is indexed as it comes.
    writeFileSync(path.join(dir, '0090-new.md'), record('Partition the Kafka topics'));
    for (const c of [eager, background]) c.refresh();
    expect(storeOf(background).search.building).toBe(false);
    expect(answers(background)).toEqual(answers(eager));
  });

  it('ends in the eager index state when a search comes between edits during the build', () => {
    const { root, corpus: dir, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const eager = load(root, dir, false);
    const background = load(root, dir, true);
    stepBy(background, 5);
    rmSync(path.join(dir, '0004-adopt-typescript.md'));
    for (const c of [eager, background]) c.refresh();
    expect(answers(background)).toEqual(answers(eager));
    writeFileSync(path.join(dir, '0004-adopt-typescript.md'), '# 4. Adopt Rust\n\nStatus: accepted\n');
    for (const c of [eager, background]) c.refresh();
    expect(answers(background)).toEqual(answers(eager));
  });

  it('keeps no bodies while queued and leaves the body cache as it was', async () => {
    const root = path.join(FIXTURES, 'mixed');
    const corpus = load(root, path.join(root, 'docs/decisions'), true);
    const search = storeOf(corpus).search;
    const pending = (search as unknown as { pending: { kind: string; body?: unknown }[] }).pending;
    const upserts = pending.filter((op) => op.kind === 'upsert');
    expect(upserts.length).toBe(corpus.decisions.length);
    for (const op of upserts) expect(typeof op.body).toBe('function');
    await corpus.searchReady();
    const cached = (storeOf(corpus).bodies as unknown as { entries: Map<string, string> }).entries;
    expect(cached.size).toBe(0);
  });

  it('builds nothing after the corpus is closed', async () => {
    const root = path.join(FIXTURES, 'search');
    const corpus = load(root, root, true);
    const search = storeOf(corpus).search;
    const step = vi.spyOn(search, 'step');
    corpus.close();
    await corpus.searchReady();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(step).not.toHaveBeenCalled();
    expect(search.building).toBe(true);
    // Still answerable: a search builds what is left.
    expect(corpus.search('postgresql').total).toBeGreaterThan(0);
  });

  it('lets other callbacks run between its slices', async () => {
    const search = new DecisionSearch({ mode: 'background' });
    for (let i = 0; i < 4; i++) {
      const body = `# Record ${i}\n\nWe index record ${i} later.\n`;
      const d = { path: `docs/${i}.md`, title: `Record ${i}`, status: 'accepted', body } as Decision;
      search.upsert(d, body, body.indexOf('\n') + 1);
    }
    search.commit();
    const builder = new IndexBuilder(search, 0);
    const step = vi.spyOn(search, 'step');
    const between: boolean[] = [];
    const watch = (): void => {
      between.push(search.building);
      if (search.building) setImmediate(watch);
    };
    setImmediate(watch);
    await builder.whenReady();
    // Four documents and a commit, one per slice (a zero budget), with the watcher seeing each.
    expect(step).toHaveBeenCalledTimes(5);
    expect(between.filter((b) => b).length).toBeGreaterThanOrEqual(4);
    expect(search.search('later').total).toBe(4);
  });
});

describe('a background build and the process', () => {
  it('never keeps a process alive: one with nothing else to do exits with the build unfinished', () => {
    // The built module in a process of its own, which has nothing to wait for once the load returns:
    // a build holding the event loop would finish before the exit, and the exit would report it done.
    const dist = fileURLToPath(
      new URL('../../../../../dist/packs/decisions/corpus/corpus.js', import.meta.url),
    );
    // Enough text that one slice (the most an exiting process runs) cannot index all of it.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'moor-index-exit-'));
    const words = Array.from({ length: 400 }, (_, i) => `word${i.toString(36)}`);
    for (let n = 1; n <= 3000; n++) {
      const body = Array.from({ length: 300 }, (_, i) => words[(n * 7 + i * 13) % words.length]).join(' ');
      writeFileSync(
        path.join(dir, `${String(n).padStart(4, '0')}-record-${n}.md`),
        `# ${n}. Record ${n}\n\nStatus: accepted\n\n${body}\n`,
      );
    }
    const script = `
      const { loadCorpus } = await import(${JSON.stringify(dist)});
      const corpus = loadCorpus({ workspaceRoot: ${JSON.stringify(dir)}, corpusDir: ${JSON.stringify(dir)}, searchIndex: 'background' });
      const search = corpus.store.search;
      process.on('exit', () => process.stdout.write(JSON.stringify({ building: search.building, decisions: corpus.decisions.length })));
    `;
    try {
      const out = JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
      );
      expect(out.decisions).toBe(3000);
      expect(out.building).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
