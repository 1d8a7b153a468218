import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/protocol/lines.js';

describe('LineSplitter', () => {
  it('yields exact line bytes across chunks, dropping CR before LF and empty lines', () => {
    const lines: string[] = [];
    const splitter = new LineSplitter();
    for (const chunk of ['{"a":1}\n{"b"', ':2}\r\n\n{"c":', '3}\n'])
      splitter.push(Buffer.from(chunk), (l) => lines.push(l.toString()));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(splitter.pendingBytes).toBe(0);
  });
});
