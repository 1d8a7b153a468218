import { describe, expect, it } from 'vitest';
import { idFromHead, isJsonRpcId, MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/protocol/json-shape.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, and nothing inside strings', () => {
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(nestsDeeperThan(bytes(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(nestsDeeperThan(bytes(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`))).toBe(true);
    expect(nestsDeeperThan(bytes(JSON.stringify({ q: '['.repeat(10_000) })))).toBe(false);
    expect(nestsDeeperThan(bytes(JSON.stringify({ q: `\\"${'{'.repeat(10_000)}` })))).toBe(false);
    expect(nestsDeeperThan(bytes('[[[]]]'), 2)).toBe(true);
    expect(nestsDeeperThan(bytes('[[],[],[]]'), 2)).toBe(false);
  });
});

describe('idFromHead', () => {
  it('reads the top-level id of a frame, never a nested one', () => {
    expect(idFromHead(bytes('{"jsonrpc":"2.0","id":42,"method":"x","params":{"q":"'))).toBe(42);
    expect(idFromHead(bytes('{"id" : "a\\"b", "method":"x"'))).toBe('a"b');
    expect(idFromHead(bytes('{"params":{"id":7},"id":8,"method":"x"'))).toBe(8);
    expect(idFromHead(bytes('{"params":{"id":7,"q":"'))).toBeNull();
    expect(idFromHead(bytes('{"method":"id","q":"{\\"id\\":3,'))).toBeNull();
    expect(idFromHead(bytes('{"id":[1],"method":"x"'))).toBeNull();
    expect(idFromHead(bytes(`{"q":"${'x'.repeat(10_000)}","id":1}`))).toBeNull();
  });
});

describe('isJsonRpcId', () => {
  it('takes strings and numbers only', () => {
    expect([1, 0, -1.5, '', 'x'].every(isJsonRpcId)).toBe(true);
    expect([null, undefined, [1], { a: 1 }, true, Number.NaN].some(isJsonRpcId)).toBe(false);
  });
});
