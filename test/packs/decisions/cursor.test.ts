import { describe, expect, it } from 'vitest';
import { decodeSearchCursor, encodeSearchCursor } from '../../../src/packs/decisions/cursor.js';

describe('search cursors', () => {
  it('round-trip the offset for the same query and corpus', () => {
    const cursor = encodeSearchCursor('sqlite|accepted|10', 'fp1', 20);
    expect(decodeSearchCursor(cursor, 'sqlite|accepted|10', 'fp1')).toBe(20);
  });

  it('refuse another query, a changed corpus, and garbage, each with its own advice', () => {
    const cursor = encodeSearchCursor('sqlite', 'fp1', 10);
    expect(() => decodeSearchCursor(cursor, 'postgres', 'fp1')).toThrow(/different query/);
    expect(() => decodeSearchCursor(cursor, 'sqlite', 'fp2')).toThrow(/changed since this cursor/);
    expect(() => decodeSearchCursor('%%%', 'sqlite', 'fp1')).toThrow(/Invalid cursor/);
    const negative = Buffer.from(JSON.stringify({ v: 1, q: 'x', f: 'fp1', o: -1 })).toString('base64url');
    expect(() => decodeSearchCursor(negative, 'sqlite', 'fp1')).toThrow(/Invalid cursor/);
  });
});
