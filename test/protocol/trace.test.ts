import { describe, expect, it } from 'vitest';
import { parseTraceparent, traceContextOf, traceIdOf } from '../../src/protocol/trace.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const VALID = `00-${TRACE}-${PARENT}-01`;

describe('parseTraceparent', () => {
  it('accepts a version-00 traceparent', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE, parentId: PARENT, flags: '01' });
  });

  it.each([
    ['another version', `01-${TRACE}-${PARENT}-01`],
    ['uppercase hex', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['an all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${PARENT}-01`],
    ['trailing data', `${VALID}-extra`],
    ['a number', 42],
    ['nothing', undefined],
  ])('rejects %s', (_label, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });
});

describe('traceContextOf', () => {
  it('keeps tracestate and baggage within their bounds', () => {
    expect(traceContextOf({ traceparent: VALID, tracestate: 'a=1', baggage: 'k=v' })).toEqual({
      traceId: TRACE,
      parentId: PARENT,
      flags: '01',
      tracestate: 'a=1',
      baggage: 'k=v',
    });
  });

  it('drops an over-long tracestate on its own', () => {
    const ctx = traceContextOf({ traceparent: VALID, tracestate: 'x'.repeat(513), baggage: 'k=v' });
    expect(ctx).toMatchObject({ traceId: TRACE, baggage: 'k=v' });
    expect(ctx).not.toHaveProperty('tracestate');
  });

  it('drops an over-long baggage on its own', () => {
    const ctx = traceContextOf({ traceparent: VALID, tracestate: 'a=1', baggage: 'x'.repeat(8193) });
    expect(ctx).toMatchObject({ traceId: TRACE, tracestate: 'a=1' });
    expect(ctx).not.toHaveProperty('baggage');
  });

  it('keeps values at exactly the bound', () => {
    const ctx = traceContextOf({
      traceparent: VALID,
      tracestate: 'x'.repeat(512),
      baggage: 'y'.repeat(8192),
    });
    expect(ctx?.tracestate).toHaveLength(512);
    expect(ctx?.baggage).toHaveLength(8192);
  });

  it('has no context without a valid traceparent', () => {
    expect(traceContextOf({ tracestate: 'a=1' })).toBeUndefined();
    expect(traceContextOf(null)).toBeUndefined();
  });
});

describe('traceIdOf', () => {
  it('reads params._meta of a JSON-RPC message', () => {
    expect(
      traceIdOf({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { traceparent: VALID } } }),
    ).toBe(TRACE);
    expect(traceIdOf({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
  });
});
