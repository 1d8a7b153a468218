import { writeFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../../../src/packs/decisions/corpus/corpus.js';
import type { Decision } from '../../../../../src/packs/decisions/corpus/model.js';
import { GlobIndex } from '../../../../../src/packs/decisions/corpus/resolve/glob-index.js';
import { MIXED, parseText, tempDir } from '../helpers.js';

const corpus = loadCorpus({ workspaceRoot: MIXED, corpusDir: 'docs/decisions' });

function summary(file: string) {
  const [answer] = corpus.governing([file]);
  if (answer === undefined) throw new Error('no answer');
  return {
    governing: answer.governing.map((g) => ({ id: g.decision.id, globs: g.globs, replaced: g.replaced })),
    proposed: answer.proposed.map((p) => ({ id: p.decision.id, globs: p.globs, replaced: p.replaced })),
    history: answer.history.map((h) => h.decision.id),
  };
}

describe('governing', () => {
  it('matches positive globs and honours negations; rejected decisions only show as history', () => {
    expect(summary('services/api/handlers/user.ts')).toEqual({
      governing: [{ id: '0002', globs: ['services/api/**'], replaced: [] }],
      proposed: [],
      history: ['0026'],
    });
    expect(summary('services/api/legacy/old.ts').governing).toEqual([]);
  });

  it('hands a superseded decision’s paths to its successor, naming what it replaced', () => {
    expect(summary('services/events/consumer.ts').governing).toEqual([
      { id: '0005', globs: ['services/events/**'], replaced: ['0003'] },
    ]);
  });

  it('follows a chain to its end and reports proposals separately', () => {
    expect(summary('infra/terraform/main.tf')).toEqual({
      governing: [{ id: '0024', globs: ['infra/terraform/**'], replaced: ['0022', '0023'] }],
      proposed: [{ id: '0025', globs: ['infra/**'], replaced: [] }],
      history: ['0022', '0023'],
    });
  });

  it('does not let a successor govern what it explicitly excludes', () => {
    expect(summary('services/events/archive/2019.json')).toEqual({
      governing: [],
      proposed: [],
      history: ['0003'],
    });
  });

  it('never follows a cycle', () => {
    expect(summary('tools/cycle/run.sh')).toEqual({ governing: [], proposed: [], history: ['0016', '0017'] });
  });

  it('matches ** in the middle, non-ASCII paths, and several decisions at once', () => {
    expect(summary('services/payments/logging/format.ts').governing.map((g) => g.id)).toEqual([
      '0018',
      '0021',
    ]);
    expect(summary('infra/zürich/main.tf').governing.map((g) => g.id)).toEqual(['0009']);
    expect(summary('packages/core/src/index.ts').governing.map((g) => g.id)).toEqual([
      '0004',
      'use-a-monorepo',
    ]);
    expect(summary('packages/core/README.md').governing.map((g) => g.id)).toEqual(['use-a-monorepo']);
  });

  it('answers in input order, including files nothing governs', () => {
    expect(
      corpus
        .governing(['nowhere/x', 'web/app/main.ts'])
        .map((a) => [a.file, a.governing.map((g) => g.decision.id)]),
    ).toEqual([
      ['nowhere/x', []],
      ['web/app/main.ts', ['0004', '0007']],
    ]);
  });

  it('keeps an accepted decision governing while its successor is only proposed, and lists the proposal', () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(path.join(dir, '0001-old.md'), '---\nstatus: accepted\naffects: [lib/**]\n---\n# Old\n');
      writeFileSync(path.join(dir, '0002-new.md'), '---\nstatus: proposed\nsupersedes: [1]\n---\n# New\n');
      writeFileSync(
        path.join(dir, '0003-newer.md'),
        '---\nstatus: accepted\nsupersedes: [4]\n---\n# Newer\n',
      );
      writeFileSync(
        path.join(dir, '0004-stale.md'),
        '---\nstatus: accepted\naffects: [bin/**]\n---\n# Stale\n',
      );
      const small = loadCorpus({ workspaceRoot: dir, corpusDir: dir });
      const [lib, bin] = small.governing(['lib/a.ts', 'bin/run']);
      expect(lib?.governing.map((g) => g.decision.id)).toEqual(['0001']);
      expect(lib?.proposed.map((p) => [p.decision.id, p.replaced])).toEqual([['0002', ['0001']]]);
      // 0004 still says accepted, but an accepted successor replaced it.
      expect(bin?.governing.map((g) => [g.decision.id, g.globs, g.replaced])).toEqual([
        ['0003', ['bin/**'], ['0004']],
      ]);
    } finally {
      cleanup();
    }
  });
});

describe('GlobIndex fast paths agree with picomatch', () => {
  const patterns = [
    'services/api/**',
    'services/api/*.ts',
    'services/*/src/**',
    '**/*.md',
    'web/app/main.ts',
    '{web,mobile}/**',
    'infra/[ab]*/**',
    '.github/workflows/*.yml',
    'a/**/b/*.ts',
  ];
  const files = [
    'services/api/x.ts',
    'services/api/deep/y.ts',
    'services/api',
    'services/apix/z.ts',
    'services/web/src/a/b.ts',
    'docs/readme.md',
    '.hidden/notes.md',
    'web/app/main.ts',
    'mobile/app.swift',
    'infra/alpha/x.tf',
    'infra/gamma/x.tf',
    '.github/workflows/ci.yml',
    'a/x/y/b/c.ts',
    'a/b/c.ts',
  ];

  for (const pattern of patterns) {
    it(pattern, () => {
      const d = parseText(`---\nstatus: accepted\naffects: ["${pattern}"]\n---\n# T\n`).decision as Decision;
      const index = new GlobIndex([d]);
      const reference = picomatch(pattern, { dot: true });
      for (const file of files) {
        // A pattern without glob characters also governs what is below it (a folder).
        const expected = reference(file) || (!/[*?[\]{}]/.test(pattern) && file.startsWith(`${pattern}/`));
        expect(index.match(file).length === 1, `${pattern} vs ${file}`).toBe(expected);
      }
    });
  }

  it('treats a plain folder pattern as the folder and everything under it', () => {
    const d = parseText('---\nstatus: accepted\naffects: [services/api]\n---\n# T\n').decision as Decision;
    const index = new GlobIndex([d]);
    expect(['services/api', 'services/api/x.ts', 'services/apix'].map((f) => index.match(f).length)).toEqual([
      1, 1, 0,
    ]);
  });

  it('forgets a removed decision', () => {
    const d = parseText('---\nstatus: accepted\naffects: ["a/**", "b/*.ts"]\n---\n# T\n')
      .decision as Decision;
    const index = new GlobIndex([d]);
    expect(index.match('b/x.ts').length).toBe(1);
    index.remove(d);
    expect(index.match('b/x.ts').length + index.match('a/y').length).toBe(0);
  });
});
