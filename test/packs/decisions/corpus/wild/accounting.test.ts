import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import { tempDir } from '../helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function workspace(files: Record<string, string>): string {
  const { dir, cleanup } = tempDir('moor-wild-');
  cleanups.push(cleanup);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('every Markdown file is accounted for', () => {
  it('turns a topic README into a table of contents once a second record joins its folder', () => {
    const root = workspace({ 'adr/0001-topic/README.md': '# One\n\nStatus: accepted\n' });
    const corpus = loadCorpus({ workspaceRoot: root, corpusDir: 'adr' });
    expect(corpus.decisions.map((d) => [d.corpusPath, d.id])).toEqual([['0001-topic/README.md', '0001']]);
    writeFileSync(path.join(root, 'adr/0001-topic/0002-more.md'), '# 2. More\n\nStatus: accepted\n');
    corpus.refresh();
    expect(corpus.decisions.map((d) => d.corpusPath)).toEqual(['0001-topic/0002-more.md']);
    expect(corpus.skipped).toEqual([{ path: 'adr/0001-topic/README.md', reason: 'table of contents' }]);
    corpus.close();
  });

  it('clears the no-decisions problem when the first decision arrives', () => {
    const root = workspace({ 'adr/README.md': '# Index\n' });
    const corpus = loadCorpus({ workspaceRoot: root, corpusDir: 'adr' });
    expect(corpus.problems.map((p) => [p.path, p.kind])).toEqual([['adr', 'no-decisions']]);
    writeFileSync(path.join(root, 'adr/0001-first.md'), '# 1. First\n\n## Status\n\nAccepted\n');
    corpus.refresh();
    expect(corpus.problems).toEqual([]);
    expect(corpus.decisions.map((d) => d.title)).toEqual(['First']);
    corpus.close();
  });

  it('says nothing about an empty folder', () => {
    const root = workspace({ 'adr/notes.txt': 'not Markdown' });
    expect(loadCorpus({ workspaceRoot: root, corpusDir: 'adr' }).problems).toEqual([]);
  });

  it('settles ambiguous dates again when the evidence changes', () => {
    const root = workspace({ 'adr/0001-a.md': '# 1. A\n\nDate: 05/02/2018\n\n## Status\n\nAccepted\n' });
    const corpus = loadCorpus({ workspaceRoot: root, corpusDir: 'adr' });
    expect(corpus.decisions[0]?.date).toBe('2018-05-02');
    writeFileSync(path.join(root, 'adr/0002-b.md'), '# 2. B\n\nDate: 25/02/2018\n\n## Status\n\nAccepted\n');
    corpus.refresh();
    expect(corpus.decisions.map((d) => d.date)).toEqual(['2018-02-05', '2018-02-25']);
    corpus.close();
  });
});
