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

describe('LineSplitter with a bound', () => {
  it('reports a line that outgrows the bound once, by its head, and goes on after its newline', () => {
    const lines: string[] = [];
    const heads: string[] = [];
    const splitter = new LineSplitter(16);
    const push = (chunk: string) =>
      splitter.push(
        Buffer.from(chunk),
        (l) => lines.push(l.toString()),
        (h) => heads.push(h.toString()),
      );
    push('{"a":1}\n{"id":5,"q":"');
    push('xxxxxxxxxxxxxxxxxxxxx');
    push('yyyyyyyyyyyyyy"}\n{"b":2}\n');
    push(`{"id":6,"q":"${'z'.repeat(20)}"}\n{"c":3}\n`);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(heads).toHaveLength(2);
    expect(heads[0]?.startsWith('{"id":5,')).toBe(true);
    expect(heads[1]?.startsWith('{"id":6,')).toBe(true);
    expect(splitter.pendingBytes).toBe(0);
  });
});
