/**
 * The glob index files its adds and removals when first asked: for any
 * sequence of adds, re-adds and removals, an index asked only at the end
 * answers exactly as one asked after every change (same decisions, same
 * patterns, same order, same ordinals).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../../src/packs/decisions/corpus/model.js';
import { GlobIndex } from '../../../../../src/packs/decisions/corpus/resolve/glob-index.js';

const GLOBS = [
  'src/**',
  'src/api',
  'src/*.ts',
  '!src/api/**',
  'docs/**/*.md',
  '**/*.sql',
  'db',
  '!**/*.test.ts',
  'lib/x.ts',
];
const FILES = [
  'src/a.ts',
  'src/api/b.ts',
  'src/api/b.test.ts',
  'docs/x/y.md',
  'db/m.sql',
  'lib/x.ts',
  'db',
  'README.md',
];

function decision(path: string, governs: readonly string[]): Decision {
  return { path, governs } as unknown as Decision;
}

const op = fc.tuple(
  fc.boolean(),
  fc.constantFrom('a.md', 'b.md', 'c.md', 'd.md'),
  fc.subarray(GLOBS, { maxLength: 4 }),
);

function answers(index: GlobIndex, paths: readonly string[]) {
  return {
    matches: FILES.map((f) => index.match(f).map((m) => [m.decision.path, m.globs])),
    ordinals: paths.map((p) => index.ordinalOf(decision(p, []))),
    capacity: index.capacity,
  };
}

describe('GlobIndex', () => {
  it('answers the same whether asked after every change or only at the end', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const eager = new GlobIndex();
        const lazy = new GlobIndex();
        const current = new Map<string, Decision>();
        for (const [add, path, governs] of ops) {
          const d = add ? decision(path, governs) : current.get(path);
          if (d === undefined) continue;
          for (const index of [eager, lazy]) {
            if (add) index.add(d);
            else index.remove(d);
          }
          if (add) current.set(path, d);
          else current.delete(path);
          answers(eager, ['a.md', 'b.md', 'c.md', 'd.md']);
        }
        const paths = ['a.md', 'b.md', 'c.md', 'd.md'];
        expect(answers(lazy, paths)).toEqual(answers(eager, paths));
      }),
      { numRuns: 500 },
    );
  });
});
