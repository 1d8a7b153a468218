import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Corpus, loadCorpus } from '../../../../src/packs/decisions/corpus/corpus.js';
import { copyMixed } from './helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

const record = (n: number, title: string, extra = '') =>
  `# ${n}. ${title}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n${extra}\n`;

function setup(recheckMs?: number): { corpus: Corpus; dir: string } {
  const { root, corpus: dir, cleanup } = copyMixed();
  const corpus = loadCorpus({ workspaceRoot: root, corpusDir: dir, watch: true, recheckMs });
  cleanups.push(() => corpus.close(), cleanup);
  return { corpus, dir };
}

/** Resolves once a refresh of the corpus leaves `check` true (checked after every refresh event). */
function refreshedUntil(corpus: Corpus, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const stop = corpus.onRefreshed(() => {
      if (!check()) return;
      stop();
      resolve();
    });
  });
}

const ids = (corpus: Corpus, query: string) => corpus.search(query).hits.map((h) => h.decision.id);

describe('a corpus folder replaced while watched', () => {
  it('follows mv away + cp back: new files appear, deleted ones are gone, later edits are seen', async () => {
    const { corpus, dir } = setup(0);
    expect(ids(corpus, 'kafka')).toContain('0003');
    const done = refreshedUntil(
      corpus,
      () => ids(corpus, 'zanzibar').includes('0030') && !ids(corpus, 'kafka').includes('0003'),
    );
    renameSync(dir, `${dir}.old`);
    cpSync(`${dir}.old`, dir, { recursive: true });
    rmSync(path.join(dir, '0003-use-kafka-for-events.md'));
    writeFileSync(path.join(dir, '0030-adopt-zanzibar.md'), record(30, 'Adopt Zanzibar', 'Tuples.'));
    await done;

    // The new folder is watched; the old one (still on disk) is not.
    const edited = refreshedUntil(corpus, () => ids(corpus, 'openfga').includes('0031'));
    writeFileSync(path.join(`${dir}.old`, '0032-old-folder.md'), record(32, 'Ignored', 'Oldfolder.'));
    writeFileSync(path.join(dir, '0031-adopt-openfga.md'), record(31, 'Adopt OpenFGA', 'Tuples.'));
    await edited;
    expect(ids(corpus, 'oldfolder')).toEqual([]);
  });

  it('follows rm -rf + re-create', async () => {
    const { corpus, dir } = setup(0);
    const emptied = refreshedUntil(corpus, () => corpus.decisions.length === 0);
    rmSync(dir, { recursive: true, force: true });
    await emptied;
    const back = refreshedUntil(corpus, () => ids(corpus, 'zanzibar').includes('0030'));
    mkdirSync(dir);
    writeFileSync(path.join(dir, '0030-adopt-zanzibar.md'), record(30, 'Adopt Zanzibar', 'Tuples.'));
    await back;
    expect(corpus.decisions.map((d) => d.id)).toEqual(['0030']);
  });

  it('the periodic check catches a change no watcher reported', async () => {
    const { corpus, dir } = setup(20);
    // Simulate a watcher that misses events: stop every watcher, leaving only the periodic check.
    (corpus as unknown as { watcher: { close(): void } }).watcher.close();
    const seen = refreshedUntil(corpus, () => ids(corpus, 'zanzibar').includes('0030'));
    writeFileSync(path.join(dir, '0030-adopt-zanzibar.md'), record(30, 'Adopt Zanzibar', 'Tuples.'));
    await seen;
  });
});
