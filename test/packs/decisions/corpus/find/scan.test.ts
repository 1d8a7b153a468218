import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Corpus, loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import { tempDir } from '../helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function corpusOf(files: Record<string, string>, watch = false) {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const dir = path.join(t.dir, 'docs/adr');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const corpus = loadCorpus({ workspaceRoot: t.dir, corpusDir: 'docs/adr', watch });
  cleanups.push(() => corpus.close());
  return { corpus, dir };
}

/** Resolves once a refresh the watcher drives leaves `check` true. */
function whenRefreshed(corpus: Corpus, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const off = corpus.onRefreshed(() => {
      if (!check()) return;
      off();
      resolve();
    });
  });
}

const RECORD = (title: string) => `# ${title}\n\n## Status\n\nAccepted\n`;

describe('tables of contents in sub-folders', () => {
  it('reads a README over folders of records as their table of contents, and says so', () => {
    const { corpus } = corpusOf({
      'sig-storage/README.md': '# SIG storage proposals\n\n- [1234](1234-volumes/README.md)\n',
      'sig-storage/1234-volumes/README.md': RECORD('Volumes'),
      'sig-net/area/README.md': '# Area index\n',
      'sig-net/area/deep/0042-routes.md': RECORD('Routes'),
    });
    expect(corpus.decisions.map((d) => [d.corpusPath, d.title])).toEqual([
      ['sig-net/area/deep/0042-routes.md', 'Routes'],
      ['sig-storage/1234-volumes/README.md', 'Volumes'],
    ]);
    expect(corpus.skipped).toEqual(
      expect.arrayContaining([
        { path: 'docs/adr/sig-storage/README.md', reason: 'table of contents' },
        { path: 'docs/adr/sig-net/area/README.md', reason: 'table of contents' },
      ]),
    );
  });

  it('still reads a topic folder README as its record when only non-Markdown sits below it', () => {
    const { corpus } = corpusOf({
      '0007-use-x/README.md': RECORD('Use X'),
      '0007-use-x/images/diagram.txt': 'not markdown',
    });
    expect(corpus.decisions.map((d) => d.id)).toEqual(['0007']);
    expect(corpus.skipped).toEqual([]);
  });
});

describe('tables of contents while watching', () => {
  it('turns a README into a table of contents when a folder of records appears below it, and back', async () => {
    const { corpus, dir } = corpusOf({ 'sig-storage/README.md': RECORD('Storage') }, true);
    expect(corpus.decisions.map((d) => d.corpusPath)).toEqual(['sig-storage/README.md']);
    const sub = path.join(dir, 'sig-storage/1234-volumes');
    const turned = whenRefreshed(corpus, () => corpus.skipped.length === 1);
    mkdirSync(sub);
    writeFileSync(path.join(sub, 'README.md'), RECORD('Volumes'));
    await turned;
    expect(corpus.decisions.map((d) => d.corpusPath)).toEqual(['sig-storage/1234-volumes/README.md']);
    expect(corpus.skipped).toEqual([{ path: 'docs/adr/sig-storage/README.md', reason: 'table of contents' }]);
    const back = whenRefreshed(corpus, () => corpus.skipped.length === 0);
    rmSync(sub, { recursive: true });
    await back;
    expect(corpus.decisions.map((d) => d.corpusPath)).toEqual(['sig-storage/README.md']);
  });
});

describe('names that contain the word template', () => {
  it('reads a numbered record whose name ends in "template", and skips the real template with why', () => {
    const { corpus } = corpusOf({
      '0101-env-in-pod-template.md': RECORD('Env in the pod template'),
      '0102-template.md': '# [short title]\n\n## Status\n\nproposed | accepted\n',
      'adr-template.md': '# Title\n',
    });
    expect(corpus.decisions.map((d) => [d.id, d.title, d.status])).toEqual([
      ['0101', 'Env in the pod template', 'accepted'],
    ]);
    expect(corpus.skipped).toEqual([
      { path: 'docs/adr/0102-template.md', reason: 'template' },
      { path: 'docs/adr/adr-template.md', reason: 'template' },
    ]);
  });
});
