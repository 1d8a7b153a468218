/**
 * Grouping governed globs by their literal leading folders may only save
 * tests, never miss a match: for arbitrary globs and paths, whatever
 * picomatch matches lies under the glob's folder, and a walk through the
 * buckets leaves exactly the globs unmatched that testing every path
 * against every glob leaves.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { GlobBuckets, literalFolderOf } from '../../../src/packs/decisions/glob-buckets.js';

const name = fc.constantFrom('src', 'a', 'b.ts', 'lib', '.github', 'x.md', 'node', 'a.b', '{a,b}', 'A');
const patternSegment = fc.oneof(
  name,
  fc.constantFrom(
    '*',
    '**',
    '*.ts',
    '?',
    '[ab]',
    '{src,lib}',
    '@(a|b)',
    '!(a)',
    '+(a)',
    '*(a)',
    '?(b.ts)',
    '@(a|)',
    '{,a}',
    '{a,b}.ts',
    'a\\*',
    '.',
    '..',
    '',
  ),
);
const glob = fc
  .array(patternSegment, { minLength: 1, maxLength: 4 })
  .map((s) => s.join('/'))
  .filter((g) => g !== '');
const filePath = fc.array(name, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

function under(folder: string, file: string): boolean {
  if (folder === '') return true;
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  return dir === folder || dir.startsWith(`${folder}/`);
}

describe('literalFolderOf', () => {
  it('names a folder every match lies under', () => {
    fc.assert(
      fc.property(glob, filePath, (g, file) => {
        if (picomatch(g, { dot: true })(file)) expect(under(literalFolderOf(g), file)).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });

  it('stops at the first segment that is a pattern, and never takes the last', () => {
    expect(literalFolderOf('services/api/src/*.ts')).toBe('services/api/src');
    expect(literalFolderOf('services/*/src/a.ts')).toBe('services');
    expect(literalFolderOf('**/a.ts')).toBe('');
    expect(literalFolderOf('a.ts')).toBe('');
    expect(literalFolderOf('./src/*.ts')).toBe('');
    expect(literalFolderOf('src/a\\*b/c.ts')).toBe('src');
    // A trailing globstar may match nothing, so the match may be the folder itself.
    expect(literalFolderOf('lib/**')).toBe('');
    expect(literalFolderOf('lib/src/**/**')).toBe('lib');
  });
});

describe('GlobBuckets', () => {
  it('leaves the same globs unmatched as testing every entry against every glob', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(glob, { maxLength: 8 }),
        fc.array(filePath, { maxLength: 12 }),
        (globs, files) => {
          const buckets = new GlobBuckets(new Map(globs.map((g) => [`${g}#`, g])));
          const naive = new Set(globs.map((g) => `${g}#`));
          for (const file of files) {
            const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
            buckets.test(folder, file);
            for (const g of globs) if (picomatch(g, { dot: true })(file)) naive.delete(`${g}#`);
          }
          expect(buckets.unmatched()).toEqual([...naive]);
          expect(buckets.unmatchedCount).toBe(naive.size);
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('compiles no glob whose folder the walk never enters', () => {
    // An invalid pattern would throw on compiling; under a folder never walked it is never compiled.
    const buckets = new GlobBuckets(new Map([['missing/dir/+(', 'missing/dir/+(']]));
    buckets.test('', 'README.md');
    buckets.test('src', 'src/a.ts');
    expect(buckets.unmatched()).toEqual(['missing/dir/+(']);
  });
});
