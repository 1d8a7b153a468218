import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Corpus,
  type CorpusChanges,
  loadCorpus,
} from '../../../../src/packs/decisions/corpus/corpus.js';
import { readRecord } from '../../../../src/packs/decisions/corpus/read/read.js';
import { copyMixed } from './helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function setup(watch = false): { corpus: Corpus; dir: string } {
  const { root, corpus: dir, cleanup } = copyMixed();
  const corpus = loadCorpus({ workspaceRoot: root, corpusDir: dir, watch });
  cleanups.push(() => corpus.close(), cleanup);
  return { corpus, dir };
}

const record = (n: number, title: string, extra = '') =>
  `# ${n}. ${title}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n${extra}\n`;

/** Wait until `check` passes, polling every few ms; returns how long it took. */
async function until(check: () => boolean, timeoutMs = 2000): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > timeoutMs)
      throw new Error('timed out waiting for the corpus to catch up');
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - start;
}

describe('refresh()', () => {
  it('picks up added, changed and removed files and nothing else', () => {
    const { corpus, dir } = setup();
    const before = corpus.fingerprint;
    expect(corpus.refresh()).toEqual({ added: 0, changed: 0, removed: 0 });
    expect(corpus.fingerprint).toBe(before);

    writeFileSync(
      path.join(dir, '0030-adopt-zanzibar.md'),
      record(30, 'Adopt Zanzibar for permissions', 'Relationship tuples.'),
    );
    expect(corpus.refresh()).toEqual({ added: 1, changed: 0, removed: 0 });
    expect(corpus.search('zanzibar').hits.map((h) => h.decision.id)).toEqual(['0030']);
    const afterAdd = corpus.fingerprint;
    expect(afterAdd).not.toBe(before);

    writeFileSync(
      path.join(dir, '0030-adopt-zanzibar.md'),
      record(30, 'Adopt OpenFGA for permissions', 'Tuples.'),
    );
    expect(corpus.refresh()).toEqual({ added: 0, changed: 1, removed: 0 });
    expect(corpus.search('zanzibar').total).toBe(0);
    expect(corpus.search('openfga').hits.map((h) => h.decision.title)).toEqual([
      'Adopt OpenFGA for permissions',
    ]);
    expect(corpus.fingerprint).not.toBe(afterAdd);

    rmSync(path.join(dir, '0030-adopt-zanzibar.md'));
    expect(corpus.refresh()).toEqual({ added: 0, changed: 0, removed: 1 });
    expect(corpus.search('openfga').total).toBe(0);
    expect(corpus.resolve('30').kind).toBe('not-found');
    expect(corpus.fingerprint).toBe(before);
  });

  it('updates the graph and governance when a record changes', () => {
    const { corpus, dir } = setup();
    expect(corpus.governing(['infra/terraform/x.tf'])[0]?.governing.map((g) => g.decision.id)).toEqual([
      '0024',
    ]);
    writeFileSync(
      path.join(dir, '0024-terragrunt.md'),
      '# Wrap Terraform with Terragrunt\n\n- Status: rejected\n- Affects: path:infra/terragrunt/**\n',
    );
    corpus.refresh();
    expect(corpus.governing(['infra/terraform/x.tf'])[0]?.governing).toEqual([]);
    expect(corpus.decisions.find((d) => d.id === '0024')?.status).toBe('rejected');
  });

  it('reads bodies fresh from disk', () => {
    const { corpus, dir } = setup();
    const d = corpus.decisions.find((x) => x.id === '0001');
    expect(d?.body).toContain('Michael Nygard');
    writeFileSync(
      path.join(dir, '0001-record-architecture-decisions.md'),
      record(1, 'Record decisions', 'Rewritten.'),
    );
    expect(d?.body).toContain('Rewritten.');
  });

  it('treats a file that vanished before it could be read as gone', () => {
    expect(readRecord('/definitely/not/here.md')).toEqual({ kind: 'gone' });
  });
});

describe('watching', () => {
  it('makes a new file searchable within milliseconds of the write', async () => {
    const { corpus, dir } = setup(true);
    writeFileSync(path.join(dir, '0031-adopt-quokka.md'), record(31, 'Adopt Quokka', 'Small and friendly.'));
    const ms = await until(() => corpus.search('quokka').total === 1);
    expect(ms).toBeLessThan(500);
  });

  it('follows edits, renames and deletes', async () => {
    const { corpus, dir } = setup(true);
    const file = path.join(dir, '0032-pick-a-name.md');
    writeFileSync(file, record(32, 'Pick the name Walrus'));
    await until(() => corpus.search('walrus').total === 1);
    writeFileSync(file, record(32, 'Pick the name Narwhal'));
    await until(() => corpus.search('narwhal').total === 1 && corpus.search('walrus').total === 0);
    renameSync(file, path.join(dir, '0033-renamed.md'));
    await until(() => corpus.resolve('33').kind === 'found' && corpus.resolve('32').kind === 'not-found');
    rmSync(path.join(dir, '0033-renamed.md'));
    await until(() => corpus.search('narwhal').total === 0);
  });

  it('watches folders created after loading, and forgets removed ones', async () => {
    const { corpus, dir } = setup(true);
    const sub = path.join(dir, 'security');
    mkdirSync(sub);
    writeFileSync(path.join(sub, '0034-rotate-keys.md'), record(34, 'Rotate signing keys'));
    await until(() => corpus.resolve('34').kind === 'found');
    writeFileSync(path.join(sub, '0035-pin-tls.md'), record(35, 'Pin TLS versions'));
    await until(() => corpus.resolve('35').kind === 'found');
    rmSync(sub, { recursive: true });
    await until(() => corpus.resolve('34').kind === 'not-found' && corpus.resolve('35').kind === 'not-found');
  });

  it('applies pending events synchronously in ensureFresh', async () => {
    const { corpus, dir } = setup(true);
    writeFileSync(path.join(dir, '0036-ensure.md'), record(36, 'Ensure freshness'));
    // Let the watcher event arrive, but call ensureFresh before the debounce timer would.
    await new Promise((r) => setImmediate(r));
    await until(() => {
      corpus.ensureFresh();
      return corpus.resolve('36').kind === 'found';
    });
  });
});

describe('incremental index', () => {
  it('answers exactly like a fresh load after many edits', () => {
    const { corpus, dir } = setup();
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
    for (let round = 0; round < 120; round++) {
      const n = 40 + (round % 17);
      const file = path.join(dir, `00${n}-generated.md`);
      if (round % 7 === 6) rmSync(file, { force: true });
      else
        writeFileSync(
          file,
          record(
            n,
            `Generated ${words[round % 8]}`,
            `${words[(round * 3) % 8]} ${words[(round * 5) % 8]} round ${round}`,
          ),
        );
      corpus.refresh();
    }
    const fresh = loadCorpus({ workspaceRoot: path.dirname(path.dirname(dir)), corpusDir: dir });
    for (const q of [...words, 'round', 'generated alpha', 'postgresql', 'echo delta', 'foxtrt']) {
      const a = corpus.search(q, { limit: 50 });
      const b = fresh.search(q, { limit: 50 });
      expect(a.total, q).toBe(b.total);
      expect(
        a.hits.map((h) => [h.decision.path, h.score.toFixed(9)]),
        q,
      ).toEqual(b.hits.map((h) => [h.decision.path, h.score.toFixed(9)]));
    }
    expect(corpus.fingerprint).toBe(fresh.fingerprint);
  });
});

describe('what a refresh tells its listener of a file caught empty', () => {
  it('names a removed decision whose file is still there (emptied) apart from one that is gone', () => {
    const { root, corpus: dir, cleanup } = copyMixed();
    const seen: CorpusChanges[] = [];
    const corpus = loadCorpus({ workspaceRoot: root, corpusDir: dir, onChange: (c) => seen.push(c) });
    cleanups.push(() => corpus.close(), cleanup);
    const file = path.join(dir, '0030-x.md');
    writeFileSync(file, record(30, 'X'));
    corpus.refresh();
    writeFileSync(file, '');
    corpus.refresh();
    rmSync(file);
    corpus.refresh();
    expect(seen.map((c) => [c.added, c.removed, c.unreadable])).toEqual([
      [['0030-x.md'], [], []],
      [[], ['0030-x.md'], ['0030-x.md']],
    ]);
  });
});

describe('the versions a refresh tells its listener', () => {
  it('are equal for a rewrite with the same text of a file from the cold load, and differ for new text', () => {
    const { root, corpus: dir, cleanup } = copyMixed();
    const seen: CorpusChanges[] = [];
    const corpus = loadCorpus({ workspaceRoot: root, corpusDir: dir, onChange: (c) => seen.push(c) });
    cleanups.push(() => corpus.close(), cleanup);
    const [first] = corpus.decisions;
    if (first === undefined) throw new Error('the mixed corpus has decisions');
    const file = path.join(dir, first.corpusPath);
    const text = readFileSync(file, 'utf8');
    // Another size each time, so the stamp changes even where mtimes are coarse.
    writeFileSync(file, `${text}\n`);
    corpus.refresh();
    writeFileSync(file, `${text}\n\n`);
    corpus.refresh();
    writeFileSync(file, `${text}\n`);
    corpus.refresh();
    const versions = seen.map((c) => c.versions?.get(first.corpusPath));
    expect(seen.map((c) => c.changed)).toEqual([[first.corpusPath], [first.corpusPath], [first.corpusPath]]);
    expect(versions[0]).toBe(versions[2]);
    expect(versions[1]).not.toBe(versions[0]);
    expect(versions[0]).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });
});
