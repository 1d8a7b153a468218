import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import { unreadFilesFor } from '../../../../../src/packs/decisions/corpus/read/unread.js';
import { extractRefs } from '../../../../../src/packs/decisions/corpus/resolve/relations.js';
import { tempDir } from '../helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function corpusOf(files: Record<string, string>) {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const dir = path.join(t.dir, 'docs/adr');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return loadCorpus({ workspaceRoot: t.dir, corpusDir: 'docs/adr' });
}

describe('references with a project prefix', () => {
  it.each([
    ['Superseded by TEP-0023', ['TEP-0023']],
    ['Supersedes RFC 42 and PEP 8', ['RFC 42', 'PEP 8']],
    ['Supersedes ADR 7', ['7']],
  ])('lists %s', (line, refs) => {
    expect(extractRefs(line.replace(/^\S+(?: by)?\s/, ''), true)).toEqual(refs);
  });

  it('resolves TEP-, KEP-, RFC, PEP and ADR prefixes to the record with that number', () => {
    const corpus = corpusOf({
      '0007-seven.md': '# Seven\n\n## Status\n\nAccepted\n',
      '0008-eight.md': '# Eight\n\n## Status\n\nAccepted\n',
      '0023-twenty-three.md': '# Twenty-three\n\n## Status\n\nAccepted\n',
      '0042-forty-two.md': '# Forty-two\n\n## Status\n\nAccepted\n',
      '1234-big.md': '# Big\n\n## Status\n\nAccepted\n',
    });
    for (const [ref, id] of [
      ['TEP-0023', '0023'],
      ['KEP-1234', '1234'],
      ['RFC 42', '0042'],
      ['PEP 8', '0008'],
      ['ADR-7', '0007'],
      ['tep-23', '0023'],
    ] as const) {
      const r = corpus.resolve(ref);
      expect(r.kind === 'found' ? r.decision.id : r.kind, ref).toBe(id);
    }
    // A lower-case word that is no known prefix stays a slug: nothing matches it.
    expect(corpus.resolve('kafka-7').kind).toBe('not-found');
  });

  it('resolves prefixed refs listed in a relation field', () => {
    const corpus = corpusOf({
      '0008-eight.md': '# Eight\n\n## Status\n\nDeprecated\n',
      '0042-forty-two.md': '# Forty-two\n\n## Status\n\nDeprecated\n',
      '0050-fifty.md': '# Fifty\n\n- Status: accepted\n- Supersedes: RFC 42, PEP 8\n',
    });
    expect(corpus.decisions.find((d) => d.id === '0050')?.links.supersedes).toEqual(['RFC 42', 'PEP 8']);
    expect(corpus.edges.map((e) => [e.from, e.to, e.state])).toEqual([
      ['0050', '0008', 'resolved'],
      ['0050', '0042', 'resolved'],
    ]);
  });

  it('names an unread file by its prefixed number, with why', () => {
    const corpus = corpusOf({ '0023-empty.md': '', '0001-a.md': '# A\n\n## Status\n\nAccepted\n' });
    expect(unreadFilesFor(corpus, 'TEP-0023')).toEqual([
      { path: 'docs/adr/0023-empty.md', reasons: ['file is empty'] },
    ]);
  });

  it('turns front-matter replaces / superseded-by with prefixed refs into resolved edges', () => {
    const corpus = corpusOf({
      '0002-old.md': '---\nstatus: replaced\nsuperseded-by: TEP-0005\n---\n# Old\n',
      '0005-new.md': '---\nstatus: implemented\nreplaces: [TEP-0002]\n---\n# New\n',
    });
    expect(corpus.edges.map((e) => ({ from: e.from, to: e.to, state: e.state }))).toEqual([
      { from: '0005', to: '0002', state: 'resolved' },
    ]);
    expect(corpus.decisions.map((d) => [d.id, d.status])).toEqual([
      ['0002', 'superseded'],
      ['0005', 'accepted'],
    ]);
  });
});
