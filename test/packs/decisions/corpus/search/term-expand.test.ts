/**
 * The expander answers its first few words by walking every term and later
 * ones from a sorted list and length buckets; both must give the same
 * expansions, in the same order, for any dictionary and word.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TermDict } from '../../../../../src/packs/decisions/corpus/search/term-dict.js';
import { TermExpander } from '../../../../../src/packs/decisions/corpus/search/term-expand.js';

const letters = fc.constantFrom(...'abcdeimnorst0123'.split(''));
const term = fc.array(letters, { minLength: 1, maxLength: 11 }).map((cs) => cs.join(''));

/** An expander past its walking phase: the same words asked until it has built its structures. */
function indexed(dict: TermDict): TermExpander {
  const expander = new TermExpander(dict);
  for (let i = 0; i < 8; i++) expander.expand('warmup', () => 1);
  return expander;
}

describe('TermExpander', () => {
  it('gives the same expansions by walking the terms as from its sorted structures', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(term, { minLength: 1, maxLength: 300 }),
        fc.array(term, { maxLength: 6 }),
        (terms, words) => {
          const dict = new TermDict();
          for (const t of terms) dict.intern(t);
          // Document frequencies with ties, and some terms no document has.
          const df = (id: number) => id % 4;
          const walking = new TermExpander(dict);
          const built = indexed(dict);
          for (const word of [...words, ...terms.slice(0, 3)]) {
            expect(walking.expand(word, df)).toEqual(built.expand(word, df));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds prefixes and near misses while walking, and keeps up with terms added later', () => {
    const dict = new TermDict();
    for (const t of ['storage', 'store', 'stored', 'storages', 'strange', 'postgres']) dict.intern(t);
    const expander = new TermExpander(dict);
    const ids = (word: string) => expander.expand(word, () => 1).map((e) => dict.term(e.id));
    expect(ids('stor')).toEqual(['store', 'stored', 'storage', 'storages']);
    expect(ids('storge')).toEqual(['storage', 'store']);
    for (let i = 0; i < 8; i++) ids('warmup');
    dict.intern('storm');
    expect(ids('stor')).toEqual(['store', 'storm', 'stored', 'storage', 'storages']);
  });
});
