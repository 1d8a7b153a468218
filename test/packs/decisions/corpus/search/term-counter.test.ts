import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TermDict } from '../../../../../src/packs/decisions/corpus/search/term-dict.js';
import {
  MAX_TOKEN_LENGTH,
  TermCounter,
  Tokenizer,
} from '../../../../../src/packs/decisions/corpus/search/tokenize.js';

interface Counted {
  readonly terms: readonly string[];
  readonly counts: ReadonlyMap<string, number>;
  readonly tokens: number;
}

/** TermCounter's view of the texts: the dictionary it built and each term's weighted count. */
function viaCounter(texts: readonly string[], weight: number): Counted {
  const dict = new TermDict();
  const counter = new TermCounter(new Tokenizer(dict), dict);
  let tokens = 0;
  for (const t of texts) tokens += counter.count(t, 0, t.length, weight, true);
  const counts = new Map<string, number>();
  for (let k = 0; k < counter.distinct; k++) {
    const id = counter.touched[k] as number;
    counts.set(dict.term(id), counter.counts[id] as number);
  }
  return { terms: [...dict.terms], counts, tokens };
}

/** The reference: the general tokenizer, one token at a time. */
function viaTokenizer(texts: readonly string[], weight: number): Counted {
  const dict = new TermDict();
  const tok = new Tokenizer(dict);
  const counts = new Map<string, number>();
  let tokens = 0;
  for (const t of texts) {
    const n = tok.run(t, 0, t.length, true);
    tokens += n;
    for (const id of tok.ids.subarray(0, n)) {
      const term = dict.term(id);
      counts.set(term, (counts.get(term) ?? 0) + weight);
    }
  }
  return { terms: [...dict.terms], counts, tokens };
}

const pieces = [
  'a',
  'Z',
  '7',
  ' ',
  '\n',
  '-',
  '_',
  '.',
  'é',
  'É',
  'ß',
  '東',
  '—',
  '\u0301',
  '😀',
  '\ud800',
  'x'.repeat(MAX_TOKEN_LENGTH),
  '9'.repeat(MAX_TOKEN_LENGTH - 1),
  'Kafka',
  'ZÜRICH',
];

describe('TermCounter', () => {
  it('counts exactly the terms of the general tokenizer, in the same order', () => {
    const text = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((p) => p.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(text, fc.string({ unit: 'binary' })), { maxLength: 4 }),
        fc.integer({ min: 1, max: 3 }),
        (texts, weight) => {
          expect(viaCounter(texts, weight)).toEqual(viaTokenizer(texts, weight));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('counts a token that ends the range and skips one longer than the limit', () => {
    const long = 'a'.repeat(MAX_TOKEN_LENGTH + 1);
    const exact = 'b'.repeat(MAX_TOKEN_LENGTH);
    const out = viaCounter([`Use ${long} ${exact} Kafka kafka`], 1);
    expect(out.terms).toEqual(['use', exact, 'kafka']);
    expect(out.counts.get('kafka')).toBe(2);
    expect(out.tokens).toBe(4);
  });

  it('counts only text[from, to)', () => {
    const dict = new TermDict();
    const counter = new TermCounter(new Tokenizer(dict), dict);
    expect(counter.count('skip Middle part skip', 5, 16, 1, true)).toBe(2);
    expect(dict.terms).toEqual(['middle', 'part']);
  });

  it('skips unknown terms when not adding', () => {
    const dict = new TermDict();
    const counter = new TermCounter(new Tokenizer(dict), dict);
    counter.count('known', 0, 5, 1, true);
    counter.reset();
    expect(counter.count('known unknown Ünknown', 0, 21, 1, false)).toBe(1);
    expect(dict.size).toBe(1);
  });
});
