import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeGlob } from '../../../../../src/packs/decisions/corpus/read/metadata.js';

/** The rule as first written: strip one quote at each end, unconditionally through the regex. */
function reference(raw: string): string {
  let g = raw.trim().replace(/^["']|["']$/g, '');
  const negated = g.startsWith('!');
  if (negated) g = g.slice(1).trim();
  if (g.toLowerCase().startsWith('path:')) g = g.slice(5);
  while (g.startsWith('./')) g = g.slice(2);
  while (g.startsWith('/')) g = g.slice(1);
  return g === '' ? '' : negated ? `!${g}` : g;
}

describe('normalizeGlob', () => {
  it('strips quotes, path: and leading ./ or /', () => {
    expect(normalizeGlob(' "path:./src/**" ')).toBe('src/**');
    expect(normalizeGlob("'!/b'")).toBe('!b');
    expect(normalizeGlob('"')).toBe('');
    expect(normalizeGlob('\'a"')).toBe('a');
    expect(normalizeGlob('a/"b"/c')).toBe('a/"b"/c');
  });

  it('matches the regex rule on any input', () => {
    const piece = fc.constantFrom('"', "'", ' ', '!', '/', './', 'path:', 'PATH:', 'a', '*', '\t');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
          fc.string(),
        ),
        (raw) => {
          expect(normalizeGlob(raw)).toBe(reference(raw));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
