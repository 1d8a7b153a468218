import { describe, expect, it } from 'vitest';
import { boundedDistance } from '../../../../../src/packs/decisions/corpus/search/edit-distance.js';
import { TermDict } from '../../../../../src/packs/decisions/corpus/search/term-dict.js';
import {
  MAX_TOKEN_LENGTH,
  Tokenizer,
  tokenizeToStrings,
} from '../../../../../src/packs/decisions/corpus/search/tokenize.js';

function tokens(text: string): string[] {
  const dict = new TermDict();
  const tok = new Tokenizer(dict);
  const n = tok.run(text, 0, text.length, true);
  return [...tok.ids.subarray(0, n)].map((id) => dict.term(id));
}

describe('tokenizer', () => {
  it('lowercases runs of letters and digits, splitting on everything else', () => {
    expect(tokens('Use ADR-0018: PostgreSQL_16 (v2.1)!')).toEqual([
      'use',
      'adr',
      '0018',
      'postgresql',
      '16',
      'v2',
      '1',
    ]);
  });

  it('keeps non-ASCII words whole and folds their case', () => {
    expect(tokens('Déploiement à ZÜRICH — Straße/Größe 東京')).toEqual([
      'déploiement',
      'à',
      'zürich',
      'straße',
      'größe',
      '東京',
    ]);
    expect(tokenizeToStrings('Déploiement à ZÜRICH')).toEqual(['déploiement', 'à', 'zürich']);
  });

  it('interns each term once, whatever its case or where it was cut from', () => {
    const dict = new TermDict();
    const tok = new Tokenizer(dict);
    const text = 'Cache cache CACHE cached';
    const n = tok.run(text, 0, text.length, true);
    expect([...tok.ids.subarray(0, n)]).toEqual([0, 0, 0, 1]);
    expect(dict.lookup('cache')).toBe(0);
    expect(dict.lookup('missing')).toBe(-1);
    // Lookup-only runs skip unknown terms.
    expect(tok.run('cache missing', 0, 13, false)).toBe(1);
  });

  it('skips data-like tokens longer than the limit', () => {
    const long = 'x'.repeat(MAX_TOKEN_LENGTH + 1);
    expect(tokens(`before ${long} after`)).toEqual(['before', 'after']);
  });

  it('survives many distinct terms (table growth)', () => {
    const words = Array.from({ length: 20000 }, (_, i) => `w${i.toString(36)}`);
    const dict = new TermDict();
    const tok = new Tokenizer(dict);
    const text = words.join(' ');
    tok.run(text, 0, text.length, true);
    expect(dict.size).toBe(20000);
    expect(words.every((w, i) => dict.lookup(w) === i)).toBe(true);
  });
});

describe('boundedDistance', () => {
  it.each([
    ['kafka', 'kafka', 2, 0],
    ['kafka', 'kafak', 2, 1],
    ['postgress', 'postgres', 2, 1],
    ['kubernets', 'kubernetes', 2, 1],
    ['service', 'sevrice', 1, 1],
    ['abc', 'xyz', 1, 2],
    ['short', 'muchlongerword', 2, 3],
  ])('%s / %s (max %i) → %i', (a, b, max, expected) => {
    expect(boundedDistance(a, b, max)).toBe(expected);
  });
});
