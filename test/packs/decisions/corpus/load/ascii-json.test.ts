/**
 * The caches' JSON is written in ASCII and reads back as the value written,
 * whatever the strings hold (accents, emoji, lone surrogates); bytes that are
 * not ASCII (an older cache) still decode as UTF-8.
 */
import { isAscii } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiJson, decodeText } from '../../../../../src/packs/decisions/corpus/load/ascii-json.js';

describe('asciiJson and decodeText', () => {
  it('writes only ASCII and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        for (const v of [value, { text, nested: [text, value] }]) {
          const json = asciiJson(v);
          expect(isAscii(Buffer.from(json, 'utf8'))).toBe(true);
          expect(JSON.parse(decodeText(Buffer.from(json, 'latin1')))).toEqual(JSON.parse(JSON.stringify(v)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('decodes UTF-8 bytes as UTF-8', () => {
    const bytes = Buffer.from('{"title":"Décision — ✓"}', 'utf8');
    expect(JSON.parse(decodeText(bytes)).title).toBe('Décision — ✓');
    expect(decodeText(bytes.subarray(2, 7))).toBe('title');
  });
});
