/**
 * The prefilter may only say "no" where picomatch says no: over generated
 * globs and paths of the shapes it reads (and some it must leave alone), a
 * false from it is always a false from picomatch, and it does say no often.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globPrefilter } from '../../../../../src/packs/decisions/corpus/resolve/glob-prefilter.js';

const NAMES = ['src', 'api', 'a.ts', 'b.md', '.env', 'x', 'events'];
const GLOB_SEGMENTS = [...NAMES, '*', '?', '*.ts', 'a?ts', '**', '.*', 's*c', '**x', '{a,b}', '[ab]', '+(x)'];

const path = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
const glob = fc
  .tuple(
    fc.constantFrom('', './', '/'),
    fc.array(fc.constantFrom(...GLOB_SEGMENTS), { minLength: 1, maxLength: 5 }),
    fc.constantFrom('', '/'),
  )
  .map(([lead, segments, trail]) => `${lead}${segments.join('/')}${trail}`);

describe('globPrefilter', () => {
  it('says no only where picomatch says no', () => {
    let refused = 0;
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (g, files) => {
        const quick = globPrefilter(g);
        if (quick === null) return;
        const match = picomatch(g, { dot: true });
        for (const file of files) {
          if (quick(file)) continue;
          refused += 1;
          expect(match(file), `${g} ${file}`).toBe(false);
        }
      }),
      { numRuns: 5000 },
    );
    // A filter that let everything through would pass the property above.
    expect(refused).toBeGreaterThan(1000);
  });

  it('reads plain globs and leaves the rest to picomatch', () => {
    expect(globPrefilter('services/*/src/events/**')?.('services/disputes/src/a.ts')).toBe(false);
    expect(globPrefilter('services/*/src/events/**')?.('services/disputes/src/events')).toBe(true);
    expect(globPrefilter('packages/flags/src/*.ts')?.('packages/flags/src/a/b.ts')).toBe(false);
    expect(globPrefilter('**/*.sql')?.('db/m.sql')).toBe(true);
    for (const g of ['{a,b}/x', 'src/[ab].ts', './src/*.ts', 'src//x', 'src/**x/y', 'a/+(b)', 'a\\*b'])
      expect(globPrefilter(g), g).toBeNull();
  });
});
