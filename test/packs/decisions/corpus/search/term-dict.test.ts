/**
 * A restored dictionary is the one its terms were interned into: the same id
 * for every term, lookups that find them, and room to grow after; tables that
 * cannot be a dictionary's of those terms are refused and leave it empty.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TermDict } from '../../../../../src/packs/decisions/corpus/search/term-dict.js';

describe('TermDict.restore', () => {
  it('gives every term the id interning gave it, and keeps interning after', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 5000 }),
        (terms) => {
          const interned = new TermDict();
          for (const t of terms) interned.intern(t);
          const restored = new TermDict();
          const { meta, table } = interned.tables();
          expect(restored.restore(interned.terms.slice(), meta, table)).toBe(true);
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

  it('refuses tables whose sizes do not fit the terms, and stays empty', () => {
    const interned = new TermDict();
    for (const t of ['storage', 'queue', 'cache']) interned.intern(t);
    const terms = interned.terms.slice();
    const good = interned.tables();
    const bad: Array<[string, Int32Array<ArrayBuffer>, Int32Array<ArrayBuffer>]> = [
      ['a table that is no power of two', good.meta, new Int32Array(5000)],
      ['a table too small', good.meta, good.table.slice(0, 2048)],
      ['a table with no empty slot', good.meta, new Int32Array(4096).fill(2)],
      ['meta of another size', good.meta.slice(0, 6), good.table],
    ];
    for (const [what, meta, table] of bad) {
      const dict = new TermDict();
      expect(dict.restore(terms, meta, table), what).toBe(false);
      expect(dict.size, what).toBe(0);
      expect(dict.lookup('storage'), what).toBe(-1);
    }
    const dict = new TermDict();
    expect(dict.restore(terms, good.meta, good.table)).toBe(true);
    expect(dict.lookup('queue')).toBe(1);
  });

  it('with stored values that are wrong, a lookup misses or finds a real term, and never hangs', () => {
    const interned = new TermDict();
    const terms = ['storage', 'queue', 'cache', 'index'];
    for (const t of terms) interned.intern(t);
    const good = interned.tables();
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(4095), fc.integer({ min: -5, max: 12 })), { maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(11), fc.integer()), { maxLength: 6 }),
        (slots, metas) => {
          const table = good.table.slice();
          const meta = good.meta.slice();
          for (const [slot, v] of slots) table[slot] = v;
          for (const [k, v] of metas) meta[k] = v;
          table[4095] = 0; // an empty slot, as restore requires
          const dict = new TermDict();
          expect(dict.restore(terms, meta, table)).toBe(true);
          for (const probe of [...terms, 'absent', 'x'.repeat(7)]) {
            const id = dict.lookup(probe);
            expect(id >= -1 && id < terms.length).toBe(true);
          }
          expect(dict.intern('brand-new')).toBe(terms.length);
          expect(dict.lookup('brand-new')).toBe(terms.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('fills a table past half only by growing it', () => {
    const dict = new TermDict();
    const terms = Array.from({ length: 3000 }, (_, i) => `t${i}`);
    for (const t of terms) dict.intern(t);
    const { meta, table } = dict.tables();
    const restored = new TermDict();
    expect(restored.restore(terms, meta, table)).toBe(true);
    for (let i = 0; i < 3000; i++) restored.intern(`u${i}`);
    for (let i = 0; i < 3000; i++) expect(restored.lookup(`t${i}`)).toBe(i);
    for (let i = 0; i < 3000; i++) expect(restored.lookup(`u${i}`)).toBe(3000 + i);
  });
});
