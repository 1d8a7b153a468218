/**
 * A restored dictionary is the one its terms were interned into: the same id
 * for every term, lookups that find them, and room to grow after; a list that
 * repeats a term is refused and leaves the dictionary empty.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TermDict } from '../../../../../src/packs/decisions/corpus/search/term-dict.js';

describe('TermDict.restoreTerms', () => {
  it('gives every term the id interning gave it, and keeps interning after', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 5000 }),
        (terms) => {
          const interned = new TermDict();
          for (const t of terms) interned.intern(t);
          const restored = new TermDict();
          expect(restored.restoreTerms(interned.terms)).toBe(true);
          expect(restored.size).toBe(terms.length);
          for (const [id, t] of terms.entries()) expect(restored.lookup(t)).toBe(id);
          expect(restored.lookup('\u0000absent')).toBe(-1);
          expect(restored.intern('\u0000new')).toBe(terms.length);
          expect(restored.lookup('\u0000new')).toBe(terms.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a list that repeats a term and stays empty', () => {
    const dict = new TermDict();
    expect(dict.restoreTerms(['storage', 'queue', 'storage'])).toBe(false);
    expect(dict.size).toBe(0);
    expect(dict.lookup('storage')).toBe(-1);
    expect(dict.restoreTerms(['storage', 'queue'])).toBe(true);
    expect(dict.lookup('queue')).toBe(1);
  });
});
