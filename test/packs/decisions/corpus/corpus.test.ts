import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MoorError } from '../../../../src/errors.js';
import { loadCorpus } from '../../../../src/packs/decisions/corpus/corpus.js';
import { copyMixed, MIXED, tempDir } from './helpers.js';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

const mixed = () => loadCorpus({ workspaceRoot: MIXED, corpusDir: 'docs/decisions' });

describe('loading the mixed corpus', () => {
  it('reads every decision, sorted by number then path, and skips README and templates', () => {
    const corpus = mixed();
    expect(corpus.decisions.map((d) => d.corpusPath)).toEqual([
      '0001-record-architecture-decisions.md',
      '0002-use-postgresql-for-storage.md',
      '0003-use-kafka-for-events.md',
      '0004-adopt-typescript.md',
      '0005-use-nats-for-events.md',
      '0006-madr-two-bullets.md',
      '0007-crlf-record.md',
      '0008-bom-record.md',
      '0009-déploiement-zürich.md',
      // No heading: still a decision, titled from its file name.
      '0013-no-title.md',
      '0014-duplicate-a.md',
      '0014-duplicate-b.md',
      '0015-dangling-supersession.md',
      '0016-cycle-a.md',
      '0017-cycle-b.md',
      '0018-logging-format.md',
      '0019-add-trace-ids-to-logs.md',
      '0020-strange-status.md',
      'payments/0021-ledger-in-postgres.md',
      '0022-terraform-modules.md',
      '0023-terraform-workspaces.md',
      '0024-terragrunt.md',
      '0025-proposed-infra-policy.md',
      '0026-rejected-graphql.md',
      'adr_27_underscore-name.md',
      'ADR-0028-prefixed-name.md',
      'use-a-monorepo.md',
    ]);
  });

  it('reports file problems, sorted by path', () => {
    expect(mixed().problems.map((p) => [p.path.replace('docs/decisions/', ''), p.kind])).toEqual([
      ['0010-empty.md', 'unparseable'],
      ['0011-broken-front-matter.md', 'unparseable'],
      ['0012-unterminated-front-matter.md', 'unparseable'],
      ['0014-duplicate-a.md', 'duplicate-number'],
      ['0014-duplicate-b.md', 'duplicate-number'],
      ['0020-strange-status.md', 'unknown-status'],
    ]);
  });

  it('merges edges declared on either side and classifies them', () => {
    const edges = mixed().edges.map((e) => ({
      from: e.from,
      to: e.to,
      state: e.state,
      by: e.declaredBy.length,
    }));
    expect(edges).toEqual([
      { from: '0005', to: '0003', state: 'resolved', by: 2 },
      { from: '0015', to: 'ADR-0099', state: 'dangling', by: 1 },
      { from: '0016', to: '0017', state: 'cycle', by: 1 },
      { from: '0017', to: '0016', state: 'cycle', by: 1 },
      { from: '0023', to: '0022', state: 'resolved', by: 2 },
      { from: '0024', to: '0023', state: 'resolved', by: 2 },
      { from: '0028', to: '0001', state: 'resolved', by: 1 },
    ]);
  });

  it('reads bodies on demand, and serializes them', () => {
    const d = mixed().decisions.find((x) => x.id === '0002');
    expect(d?.body.startsWith('# Use PostgreSQL for storage\n')).toBe(true);
    expect(d?.body).not.toContain('deciders:');
    expect(JSON.parse(JSON.stringify(d)).body).toBe(d?.body);
  });

  it('follows successor chains to their end', () => {
    const corpus = mixed();
    const first = corpus.decisions.find((d) => d.id === '0022');
    if (first === undefined) throw new Error('missing 0022');
    expect(corpus.finalSuccessors(first).map((c) => [c.decision.id, c.via])).toEqual([
      ['0024', ['0022', '0023']],
    ]);
  });

  it('loads a corpus from a hidden folder', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    mkdirSync(path.join(dir, '.adr'));
    writeFileSync(path.join(dir, '.adr/0001-hidden-home.md'), '# 1. Hidden home\n\n## Status\n\nAccepted\n');
    expect(loadCorpus({ workspaceRoot: dir, corpusDir: '.adr' }).decisions.map((d) => d.title)).toEqual([
      'Hidden home',
    ]);
  });

  it('refuses a corpus folder outside the workspace or missing', () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    mkdirSync(path.join(dir, 'root'));
    mkdirSync(path.join(dir, 'elsewhere'));
    symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'root/decisions'));
    const attempt = (corpusDir: string) => () =>
      loadCorpus({ workspaceRoot: path.join(dir, 'root'), corpusDir });
    expect(attempt(path.join(dir, 'elsewhere'))).toThrow(MoorError);
    expect(attempt(path.join(dir, 'elsewhere'))).toThrow(
      expect.objectContaining({ code: 'PATH_OUTSIDE_WORKSPACE' }),
    );
    expect(attempt('decisions')).toThrow(/outside the workspace root/);
    expect(attempt('missing')).toThrow(/does not exist/);
    expect(attempt('missing')).toThrow(expect.objectContaining({ code: 'CORPUS_NOT_FOUND' }));
  });
});

describe('resolve', () => {
  const corpus = mixed();
  const id = (ref: string) => {
    const r = corpus.resolve(ref);
    return r.kind === 'found' ? r.decision.corpusPath : r.kind;
  };

  it('finds a decision by number in any spelling, id, slug, title, path or link', () => {
    for (const ref of ['5', '0005', '00005', 'ADR-0005', 'adr-5', 'ADR 5'])
      expect(id(ref), ref).toBe('0005-use-nats-for-events.md');
    expect(id('use-nats-for-events')).toBe('0005-use-nats-for-events.md');
    expect(id('0005-use-nats-for-events')).toBe('0005-use-nats-for-events.md');
    expect(id('Use NATS for events')).toBe('0005-use-nats-for-events.md');
    expect(id('docs/decisions/0005-use-nats-for-events.md')).toBe('0005-use-nats-for-events.md');
    expect(id('0005-use-nats-for-events.md')).toBe('0005-use-nats-for-events.md');
    expect(id('payments/0021-ledger-in-postgres')).toBe('payments/0021-ledger-in-postgres.md');
    expect(id('[21. Ledger](payments/0021-ledger-in-postgres.md)')).toBe(
      'payments/0021-ledger-in-postgres.md',
    );
    expect(id('use-a-monorepo')).toBe('use-a-monorepo.md');
    expect(id('27')).toBe('adr_27_underscore-name.md');
  });

  it('reports a shared number as ambiguous with every candidate', () => {
    const r = corpus.resolve('ADR-14');
    expect(r.kind).toBe('ambiguous');
    if (r.kind === 'ambiguous') {
      expect(r.candidates.map((d) => d.corpusPath)).toEqual(['0014-duplicate-a.md', '0014-duplicate-b.md']);
    }
  });

  it('suggests close references when nothing matches', () => {
    const r = corpus.resolve('use-nats-for-event');
    expect(r.kind).toBe('not-found');
    if (r.kind === 'not-found') expect(r.suggestions[0]?.id).toBe('0005');
    const byNumber = corpus.resolve('ADR-0029');
    expect(byNumber.kind).toBe('not-found');
    if (byNumber.kind === 'not-found')
      expect(byNumber.suggestions.map((d) => d.number)).toEqual([28, 27, 26, 25, 24]);
  });
});

describe('unsafe and unusual files', () => {
  it('never reads a symlink that leaves the workspace, and says so', () => {
    const { root, corpus, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const outside = path.join(path.dirname(root), 'outside.md');
    writeFileSync(outside, '# 40. Secret\n\n## Status\n\nAccepted\n');
    symlinkSync(outside, path.join(corpus, '0040-secret.md'));
    mkdirSync(path.join(root, 'shared'));
    writeFileSync(path.join(root, 'shared/inside.md'), '# 41. Shared\n\n## Status\n\nAccepted\n');
    symlinkSync(path.join(root, 'shared/inside.md'), path.join(corpus, '0041-shared.md'));
    const loaded = loadCorpus({ workspaceRoot: root, corpusDir: corpus });
    expect(loaded.decisions.some((d) => d.title === 'Secret')).toBe(false);
    expect(loaded.problems.find((p) => p.path === 'docs/decisions/0040-secret.md')).toEqual({
      path: 'docs/decisions/0040-secret.md',
      kind: 'skipped',
      message: 'symlink to a location outside the workspace root; not read',
    });
    expect(loaded.resolve('41').kind).toBe('found');
  });

  it('reports oversized Markdown files instead of skipping them silently', () => {
    const { corpus, root, cleanup } = copyMixed();
    cleanups.push(cleanup);
    writeFileSync(path.join(corpus, '0050-huge.md'), `# 50. Huge\n\n${'x'.repeat(1024 * 1024)}`);
    const loaded = loadCorpus({ workspaceRoot: root, corpusDir: corpus });
    expect(loaded.problems.find((p) => p.path.endsWith('0050-huge.md'))?.kind).toBe('skipped');
  });

  it('reports hidden Markdown files but ignores hidden folders', () => {
    const { corpus, root, cleanup } = copyMixed();
    cleanups.push(cleanup);
    writeFileSync(path.join(corpus, '.0052-draft.md'), '# 52. Draft\n\n## Status\n\nProposed\n');
    mkdirSync(path.join(corpus, '.obsidian'));
    writeFileSync(path.join(corpus, '.obsidian/0053-notes.md'), '# 53. Notes\n');
    const loaded = loadCorpus({ workspaceRoot: root, corpusDir: corpus });
    expect(loaded.problems.filter((p) => p.kind === 'skipped').map((p) => [p.path, p.message])).toEqual([
      ['docs/decisions/.0052-draft.md', 'hidden file; not read as a decision'],
    ]);
    expect(loaded.resolve('53').kind).toBe('not-found');
  });

  it('reports a FIFO named like a decision instead of blocking on it', () => {
    const { corpus, root, cleanup } = copyMixed();
    cleanups.push(cleanup);
    execFileSync('mkfifo', [path.join(corpus, '0051-pipe.md')]);
    const loaded = loadCorpus({ workspaceRoot: root, corpusDir: corpus });
    expect(loaded.problems.find((p) => p.path.endsWith('0051-pipe.md'))).toMatchObject({
      kind: 'skipped',
      message: 'not a regular file',
    });
  });

  it('changes the fingerprint with any record change, and not otherwise', () => {
    const { corpus, root, cleanup } = copyMixed();
    cleanups.push(cleanup);
    const a = loadCorpus({ workspaceRoot: root, corpusDir: corpus });
    const b = loadCorpus({ workspaceRoot: root, corpusDir: corpus });
    expect(a.fingerprint).toBe(b.fingerprint);
    writeFileSync(path.join(corpus, '0060-new.md'), '# 60. New\n\n## Status\n\nAccepted\n');
    a.refresh();
    expect(a.fingerprint).not.toBe(b.fingerprint);
  });
});
